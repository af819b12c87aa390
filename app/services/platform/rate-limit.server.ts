import { isIPv4, isIPv6 } from 'node:net';
import { createClient } from 'redis';
import { getConfig } from '~/env.server';
import { countEvent, limitName } from './counters.server';
import { AppError } from './errors.server';

/**
 * Fixed-window limits for login and code endpoints (ARCHITECTURE §6, decision 005): in memory on one
 * instance, in Redis when REDIS_URL is set so every instance shares them.
 *
 * Reservation, not check-then-record. `reserveAttempt` takes a slot in every counter of an attempt *before*
 * the attempt runs, in one atomic step: if each counter is still below its limit they are all incremented
 * (a new counter starts a window of RATE_WINDOW_SECONDS), otherwise none is and the caller gets 429
 * RATE_LIMIT_EXCEEDED with Retry-After = the seconds left in the window of the counter that is full. The
 * step is atomic in both stores (memory: no `await` between the check and the increment; Redis: one Lua
 * script), so 150 parallel requests cannot all read "9" and all run: exactly `limit` of them get a slot.
 * A refused attempt changes no counter, so a client hammering one account from a shared address does not
 * also use up that address's budget for everyone behind it.
 *
 * Only failures count. The slot is taken for every attempt (nobody knows yet whether it will fail); the
 * caller gives it back with `releaseAttempt` when the attempt turns out not to be a guess (right password,
 * right code, or an error of ours). So the counters hold failed attempts plus those in flight. A right
 * password also forgives that person's earlier typos from that address (`clearAttempts` on the
 * account+address counter), but never the per-address counter: otherwise an attacker could reset it by
 * logging in to an account of their own now and then.
 */
export const RATE_WINDOW_SECONDS = 60;

/** Failed logins per account per client address and minute. Not per account alone: then ten wrong
 * passwords from anywhere would lock a chosen person out for a minute, over and over. */
export const LOGIN_FAILURES_PER_ACCOUNT_IP = 10;
/** Failed logins per client address and minute, over all accounts. High, because a hotel, café, campus
 * or mobile carrier (CGNAT) puts many travellers behind one address, and at 10 a single mistyping guest
 * would lock the lobby out; 100 is still only ~1.7 argon2 checks a second per address, which bounds
 * password spraying from one address and the CPU one address can make us burn. */
export const LOGIN_FAILURES_PER_IP = 100;
/** Wrong codes per client address and minute, over all addresses it tries. A code is a 6-digit secret
 * that opens a session, so this stays low: people mistype a code once or twice, not ten times. */
export const CODE_FAILURES_PER_IP = 10;
/** Wrong codes per email address and minute, from anywhere. A backstop: a code is void after 5 wrong
 * tries anyway (email-codes.server.ts), and a new one can be mailed once a minute. */
export const CODE_FAILURES_PER_ACCOUNT = 10;

/** Verification-code mails asked for per client address and minute, over all addresses it names. The
 * per-address cooldown alone lets one client mail a code to a thousand strangers a minute; ten is more
 * than a hotel lobby of travellers who lost their code at once. */
export const RESENDS_PER_IP = 10;

/** A counter and how many attempts it allows per window. */
export interface RateLimitRule {
  key: string;
  limit: number;
}

/**
 * A reservation: each counter's count after it and the ms left in its window (in the rules' order), for the
 * answer's RateLimit-* headers; a refusal names the counter that was full (the one with the longest wait).
 */
export type Reservation =
  | { allowed: true; counters: Array<{ count: number; resetInMs: number }> }
  | { allowed: false; retryAfterMs: number; fullKey?: string };

/** A limit as an answer reports it (RateLimit-Limit, -Remaining, -Reset: docs/decisions/041-rate-limit-headers.md). */
export interface LimitStanding {
  limit: number;
  remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
}

/**
 * The limits one request consulted, noted by the services that consult them (these counters, the booking's
 * counts in the database) and read by the HTTP boundary, which sends the tightest as headers. Plain data, one per
 * request (app/http/request-context.server.ts limitLog); nothing in it decides anything.
 */
export class LimitLog {
  private readonly counters = new Map<string, { limit: number; count: number; resetAt: number }>();

  /** `count` of `limit` used (this request's own use included), the window ending at `resetAt` (ms). */
  note(key: string, limit: number, count: number, resetAt: number): void {
    this.counters.set(key, { limit, count: Math.min(limit, Math.max(0, count)), resetAt });
  }

  /** A slot given back (releaseAttempt) or the counter forgotten (clearAttempts). */
  giveBack(key: string, all = false): void {
    const counter = this.counters.get(key);
    if (counter) counter.count = all ? 0 : Math.max(0, counter.count - 1);
  }

  /** The one closest to refusing: the fewest left, then the longest wait. */
  tightest(now = Date.now()): LimitStanding | undefined {
    let best: LimitStanding | undefined;
    for (const { limit, count, resetAt } of this.counters.values()) {
      const standing = { limit, remaining: limit - count, resetSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
      if (!best || standing.remaining < best.remaining || (standing.remaining === best.remaining && standing.resetSeconds > best.resetSeconds)) best = standing;
    }
    return best;
  }
}

export interface RateLimitStore {
  /** Atomically: all counters +1 when each stays ≤ its limit, else none, and how long until a slot frees. */
  reserve(rules: RateLimitRule[], windowSeconds: number): Promise<Reservation>;
  /** Gives one slot back on each counter (never below 0; the window keeps its end). */
  release(keys: string[]): Promise<void>;
  /** Forgets the counters. */
  clear(keys: string[]): Promise<void>;
  close(): Promise<void>;
}

class MemoryStore implements RateLimitStore {
  private counters = new Map<string, { count: number; resetAt: number }>();

  private live(key: string, now: number) {
    const entry = this.counters.get(key);
    return entry && entry.resetAt > now ? entry : undefined;
  }

  // Synchronous from the check to the last increment: no other reservation can interleave.
  async reserve(rules: RateLimitRule[], windowSeconds: number): Promise<Reservation> {
    const now = Date.now();
    let wait = -1;
    let fullKey: string | undefined;
    for (const { key, limit } of rules) {
      const entry = this.live(key, now);
      if (entry && entry.count + 1 > limit && entry.resetAt - now > wait) {
        wait = entry.resetAt - now;
        fullKey = key;
      }
    }
    if (wait >= 0) return { allowed: false, retryAfterMs: wait, fullKey };
    const counters = rules.map(({ key }) => {
      let entry = this.live(key, now);
      if (entry) entry.count += 1;
      else this.counters.set(key, (entry = { count: 1, resetAt: now + windowSeconds * 1000 }));
      return { count: entry.count, resetInMs: entry.resetAt - now };
    });
    if (this.counters.size > 50_000) this.sweep(now);
    return { allowed: true, counters };
  }

  async release(keys: string[]) {
    const now = Date.now();
    for (const key of keys) {
      const entry = this.live(key, now);
      if (entry && entry.count > 0) entry.count -= 1;
    }
  }

  async clear(keys: string[]) {
    for (const key of keys) this.counters.delete(key);
  }

  async close() {
    this.counters.clear();
  }

  private sweep(now: number) {
    for (const [k, v] of this.counters) if (v.resetAt <= now) this.counters.delete(k);
  }
}

/**
 * KEYS: the counters; ARGV[1]: window in ms; ARGV[2..]: each counter's limit. Returns {-1, count, ms left, count,
 * ms left, …} (each counter after its increment) when the slots were taken, else {the ms until the fullest
 * counter's window ends, that counter's position in KEYS}. Redis runs a script atomically, so
 * every instance sharing this Redis sees one order of reservations. A counter that somehow lost its expiry
 * gets one (it must never block forever).
 */
const RESERVE_SCRIPT = `
local window = tonumber(ARGV[1])
local wait = -1
local full = 0
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count + 1 > tonumber(ARGV[i + 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then
      redis.call('PEXPIRE', key, window)
      ttl = window
    end
    if ttl > wait then
      wait = ttl
      full = i
    end
  end
end
if wait >= 0 then return {wait, full} end
local taken = {-1}
for _, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, window)
    ttl = window
  end
  table.insert(taken, count)
  table.insert(taken, ttl)
end
return taken
`;

/** DECR only a live counter above 0 (a plain DECR would create a counter of -1 with no expiry). */
const RELEASE_SCRIPT = `
for _, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count > 0 then redis.call('DECR', key) end
end
return 0
`;

class RedisStore implements RateLimitStore {
  private client: ReturnType<typeof createClient>;
  private ready: Promise<unknown>;
  constructor(
    url: string,
    private prefix: string,
  ) {
    this.client = createClient({ url });
    this.client.on('error', (error) => console.error('redis (rate limits):', error.message));
    this.ready = this.client.connect();
    // Awaited by every call; this only keeps a failed first connect from being an unhandled rejection.
    this.ready.catch(() => {});
  }
  private keys(keys: string[]) {
    return keys.map((k) => `${this.prefix}${k}`);
  }
  async reserve(rules: RateLimitRule[], windowSeconds: number): Promise<Reservation> {
    await this.ready;
    const result = (await this.client.eval(RESERVE_SCRIPT, {
      keys: this.keys(rules.map((r) => r.key)),
      arguments: [String(windowSeconds * 1000), ...rules.map((r) => String(r.limit))],
    })) as number[];
    if (result[0] === -1) {
      return { allowed: true, counters: rules.map((_, i) => ({ count: Number(result[1 + 2 * i]), resetInMs: Number(result[2 + 2 * i]) })) };
    }
    return { allowed: false, retryAfterMs: Number(result[0]), fullKey: rules[Number(result[1]) - 1]?.key };
  }
  async release(keys: string[]) {
    if (keys.length === 0) return;
    await this.ready;
    await this.client.eval(RELEASE_SCRIPT, { keys: this.keys(keys), arguments: [] });
  }
  async clear(keys: string[]) {
    if (keys.length === 0) return;
    await this.ready;
    await this.client.del(this.keys(keys));
  }
  async close() {
    await this.ready.catch(() => {});
    if (this.client.isOpen) await this.client.quit();
  }
}

/**
 * A store: Redis at `url` (every store built for the same URL and prefix shares the counters, as server
 * instances do), or memory without one. Keys are namespaced by `prefix` (tests use a random one).
 */
export function createRateLimitStore(url?: string, options: { prefix?: string } = {}): RateLimitStore {
  return url ? new RedisStore(url, options.prefix ?? 'rl:') : new MemoryStore();
}

const STORE_KEY = Symbol.for('lvyou.rate-limit-store');
type WithStore = typeof globalThis & { [STORE_KEY]?: RateLimitStore };

function store(): RateLimitStore {
  const g = globalThis as WithStore;
  return (g[STORE_KEY] ??= createRateLimitStore(getConfig().REDIS_URL));
}

/** Installs the process-wide store (tests: a Redis one). Returns the one it replaced. */
export function setRateLimitStore(next: RateLimitStore): RateLimitStore | undefined {
  const g = globalThis as WithStore;
  const previous = g[STORE_KEY];
  g[STORE_KEY] = next;
  return previous;
}

/** Tests start each case with fresh counters (a new memory store). */
export function resetRateLimits(): void {
  setRateLimitStore(createRateLimitStore());
}

/**
 * The counter name for a client address. IPv4 (also IPv4-mapped IPv6) as is; IPv6 by its /64, since one
 * subscriber or site gets a whole /64 and could otherwise take a fresh address for every few guesses.
 */
export function ipKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros. */
function ipv6Groups(ip: string): string[] {
  let address = ip.split('%')[0]!.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => Number.parseInt(g, 16).toString(16));
}

/**
 * Takes a slot on every counter before an attempt runs (see the module comment), or throws 429
 * RATE_LIMIT_EXCEEDED with `retryAfter` = whole seconds left in the full counter's window (at least 1)
 * and changes nothing. A plain string key gets `limit`.
 */
export async function reserveAttempt(
  keys: ReadonlyArray<string | RateLimitRule>,
  limit = LOGIN_FAILURES_PER_ACCOUNT_IP,
  log?: LimitLog,
): Promise<void> {
  const rules = keys.map((k) => (typeof k === 'string' ? { key: k, limit } : k));
  for (const rule of rules) {
    if (!Number.isInteger(rule.limit) || rule.limit < 1) throw new Error(`rate limit for ${rule.key} must be a positive integer`);
  }
  const result = await store().reserve(rules, RATE_WINDOW_SECONDS);
  const now = Date.now();
  if (!result.allowed) {
    const full = rules.find((r) => r.key === result.fullKey) ?? rules[0]!;
    countEvent('rate_limit_refusals_total', { limit: limitName(full.key) });
    const retryAfter = Math.min(RATE_WINDOW_SECONDS, Math.max(1, Math.ceil(result.retryAfterMs / 1000)));
    log?.note(full.key, full.limit, full.limit, now + retryAfter * 1000);
    throw new AppError('RATE_LIMIT_EXCEEDED', { retryAfter });
  }
  if (log) rules.forEach((rule, i) => log.note(rule.key, rule.limit, result.counters[i]!.count, now + result.counters[i]!.resetInMs));
}

/** Gives back the slot an attempt took, when it turned out not to be a failure. */
export async function releaseAttempt(keys: ReadonlyArray<string | RateLimitRule>, log?: LimitLog): Promise<void> {
  const names = keys.map((k) => (typeof k === 'string' ? k : k.key));
  await store().release(names);
  for (const name of names) log?.giveBack(name);
}

/** Forgets these counters altogether (a right password forgives that person's earlier typos). */
export async function clearAttempts(keys: ReadonlyArray<string | RateLimitRule>, log?: LimitLog): Promise<void> {
  const names = keys.map((k) => (typeof k === 'string' ? k : k.key));
  await store().clear(names);
  for (const name of names) log?.giveBack(name, true);
}
