/** Stops the server global-setup started (SIGTERM, then wait for it to exit) and removes its data directory. */
import fs from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { MAIL_SINK_KEY } from './global-setup';
import { STATE_FILE } from './server-process';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function globalTeardown(_config: FullConfig): Promise<void> {
  let state: { pid?: number; dataDir?: string } = {};
  if (fs.existsSync(STATE_FILE)) state = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
  const pid = Number(process.env.E2E_SERVER_PID ?? state.pid);
  const dataDir = process.env.E2E_DATA_DIR ?? state.dataDir;

  if (pid && alive(pid)) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 15_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) {
      console.error(`e2e: server ${pid} ignored SIGTERM for 15 s; killing it`);
      process.kill(pid, 'SIGKILL');
    }
  }
  const sink = (globalThis as Record<symbol, unknown>)[MAIL_SINK_KEY] as { close(): Promise<void> } | undefined;
  if (sink) await sink.close();
  if (dataDir && fs.existsSync(dataDir) && !process.env.E2E_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(STATE_FILE, { force: true });
}
