import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '~db/client';
import { createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 31 §4: an unexpected database error on a path that carries a secret is logged through the one safe logger
 * (app/services/platform/log.server.ts): its class, code and message up to the parameters, and the request id; never the
 * query's parameters (a password hash, a mail with its code) nor the database's detail (the row's values).
 *
 * The database refuses the writes itself: a trigger raises for the rows of these tests, with the row in the error's
 * DETAIL (as a unique violation puts the key's value there). Real HTTP, real database, the log as written.
 */
useTestDatabase();
const server = useTestServer();

const MARK = 'log-refused';
let n = 0;
const refusedEmail = (label: string) => `${MARK}-${label}-${Date.now()}-${n++}@example.test`;

beforeAll(async () => {
  await getDb().execute(sql.raw(`
    create function refuse_for_log_test() returns trigger language plpgsql as $$
    begin
      raise exception using errcode = 'P0001', message = 'refused for the log test', detail = row_to_json(new)::text;
    end $$`));
  await getDb().execute(sql.raw(`create trigger refuse_users_for_log_test before insert or update on users for each row
    when (coalesce(new.pending_email, new.email) like '${MARK}-%' and new.bio is distinct from 'allowed') execute function refuse_for_log_test()`));
  await getDb().execute(sql.raw(`create trigger refuse_outbox_for_log_test before insert on outbox for each row
    when (new.payload->>'to' like '${MARK}-%') execute function refuse_for_log_test()`));
});
afterAll(async () => {
  for (const statement of ['drop trigger refuse_users_for_log_test on users', 'drop trigger refuse_outbox_for_log_test on outbox', 'drop function refuse_for_log_test()']) {
    await getDb().execute(sql.raw(statement));
  }
});

/** Everything the process writes while a test runs: console and the standard streams. */
let logged: string[] = [];
beforeEach(() => {
  logged = [];
  for (const level of ['error', 'warn', 'log', 'info'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}\n${JSON.stringify(a)}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    });
  }
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      logged.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
});
afterEach(() => vi.restoreAllMocks());

const log = () => logged.join('\n');

/**
 * Waits (generously) for a log line matching `pattern` (some failures are logged after the answer), checks the whole
 * log for secrets, and reads the line as the JSON it is.
 */
async function logLine(pattern: RegExp, email: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const line = logged.flatMap((chunk) => chunk.split('\n')).find((l) => pattern.test(l));
    if (line) {
      expectNoSecrets(email);
      return JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>;
    }
    if (Date.now() > deadline) throw new Error(`no log line matching ${pattern}; logged:\n${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What a safe line never holds: the query's parameters, the row's values from DETAIL, the address. */
function expectNoSecrets(email: string) {
  const text = log();
  expect(text).not.toMatch(/params:/i);
  expect(text).not.toContain('argon2');
  expect(text).not.toContain(email);
  // No 6-digit run standing alone (a code) anywhere in what was written (a request id may hold digits among its hex).
  const sixDigits = /(?<![\w.-])\d{6}(?![\w-])/.exec(text);
  expect(sixDigits && text.slice(Math.max(0, sixDigits.index - 80), sixDigits.index + 20)).toBeNull();
}

function form(path: string, fields: Record<string, string>, cookie?: string) {
  return server.request(path, {
    method: 'POST',
    origin: server.baseUrl,
    cookie,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
    body: new URLSearchParams(fields).toString(),
  });
}

describe(`errors reach the log without their secrets (${testDriver})`, () => {
  it('registration: the failed insert (password hash among its parameters) is logged as class, code and message with the request id', async () => {
    const email = refusedEmail('register');
    const res = await form('/register', { type: 'traveler', name: 'Log Test', email, password: 'secret-pass-1', agreeToTerms: 'on', termsVersion: '1.0.0' });
    expect(res.status).toBe(500);
    const line = await logLine(/register failed/, email);
    expect(line).toMatchObject({ level: 'error', request_id: res.headers.get('x-request-id') });
    expect(String(line.error)).toMatch(/Failed query: insert into "users"/);
    expect(JSON.stringify(line)).toMatch(/P0001/);
  });

  it('password reset: the code mail that could not be queued is logged without the mail', async () => {
    const email = refusedEmail('reset');
    // The account exists (the trigger lets this one row in), so a code is issued and its mail refused.
    await getDb().execute(sql`insert into users (name, email, bio, email_verified_at) values ('Reset', ${email}, 'allowed', now())`);
    const res = await form('/forgot-password', { email });
    expect(res.status).toBe(302);
    const line = await logLine(/password reset: could not send the code/, email);
    expect(line).toMatchObject({ level: 'error', request_id: res.headers.get('x-request-id') });
    expect(String(line.error)).toMatch(/insert into outbox/);
  });

  it('profile: a failed save and a change code that could not be queued are logged without the row or the mail', async () => {
    const user = await createTraveler();
    const { cookie } = await loginAs(user);

    // The save itself fails (the new address makes the trigger refuse the update): '更新失敗' on the form.
    const email = refusedEmail('profile');
    const failed = await form('/me', { intent: 'save', name: user.name, email }, cookie);
    expect(failed.status).toBe(500);
    const saveLine = await logLine(/profile save failed/, email);
    expect(saveLine).toMatchObject({ level: 'error', request_id: failed.headers.get('x-request-id') });

    // The save succeeds (the row is allowed) but the code mail to the new address is refused.
    logged = [];
    const other = refusedEmail('change');
    const saved = await form('/me', { intent: 'save', name: user.name, email: other, bio: 'allowed' }, cookie);
    expect(saved.status).toBeLessThan(400);
    const codeLine = await logLine(/profile: could not send a code/, other);
    expect(codeLine).toMatchObject({ level: 'error' });
    expect(String(codeLine.error)).toMatch(/insert into outbox/);
  });
});
