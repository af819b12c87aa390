/**
 * Starts the real production build on a free port with a fresh embedded database (ARCHITECTURE §7).
 * The database is prepared in a separate process first (migrations, demo seed, a hostile markdown link),
 * then the server starts with SEED=none so it serves exactly that data, and sends its mail over real SMTP
 * to a sink in this process that stores every message under `${E2E_DATA_DIR}/mail/` (tests/e2e/mail.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startMailSink } from './mail';
import { E2E_ADMIN } from './support';
import { assertBuilt, freePort, PROJECT_ROOT, serverEnv, spawnServer, STATE_FILE, waitForPing } from './server-process';

/** The sink stays up for the whole run; global-teardown (same process) closes it. */
export const MAIL_SINK_KEY = Symbol.for('lvyou.e2e-mail-sink');

export default async function globalSetup(_config: FullConfig): Promise<void> {
  assertBuilt();
  const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'lvyou-e2e-'));

  const prepareEnv = { ...process.env };
  delete prepareEnv.DATABASE_URL;
  const prepared = spawnSync('npx', ['tsx', 'tests/e2e/prepare-data.ts', dataDir], {
    cwd: PROJECT_ROOT,
    env: prepareEnv,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (prepared.status !== 0) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(
      `e2e: preparing the database failed (exit ${prepared.status}${prepared.error ? `, ${prepared.error.message}` : ''}):\n${prepared.stdout}\n${prepared.stderr}`,
    );
  }

  const mailSink = await startMailSink(path.join(dataDir, 'mail'));
  (globalThis as Record<symbol, unknown>)[MAIL_SINK_KEY] = mailSink;

  const port = await freePort();
  const baseURL = `http://localhost:${port}`;
  const logFile = path.join(dataDir, 'server.log');
  const logFd = fs.openSync(logFile, 'a');
  const child = spawnServer(serverEnv({ DATA_DIR: dataDir, PORT: String(port), SEED: 'none', SMTP_URL: mailSink.url, ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, TEST_CLOCK_START: earlyToday() }), logFd);
  fs.closeSync(logFd);
  // Safety net: never leave the server behind if the runner dies before teardown.
  process.once('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });

  try {
    await waitForPing(baseURL, child, 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    await mailSink.close();
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '(no log)';
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`e2e: ${(error as Error).message}\n--- server log ---\n${log}`);
  }

  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_SERVER_PID = String(child.pid);
  process.env.E2E_DATA_DIR = dataDir;
  fs.mkdirSync(path.dirname(STATE_FILE), { recursive: true });
  fs.writeFileSync(STATE_FILE, JSON.stringify({ pid: child.pid, dataDir, baseURL }));
}

/**
 * 05:00 today in Taiwan, where the server's clock starts: whatever the hour CI runs, every slot of today still
 * takes bookings (they close 3 hours before they begin, docs/decisions/015) and today is a tour day, so the
 * booking spec can book today's evening and mark it done.
 */
function earlyToday(): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
  return `${today}T05:00:00+08:00`;
}
