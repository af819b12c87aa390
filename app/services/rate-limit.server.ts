import { createClient } from 'redis';
import { getConfig } from '~/env.server';
import { AppError } from './errors.server';

/**
 * Fixed-window counters for login and code endpoints (ARCHITECTURE §6): in memory on one instance, in
 * Redis when REDIS_URL is set so every instance shares them. Only failures are counted, so a person who
 * types the right password is never slowed down by their own earlier success.
 */
export const RATE_WINDOW_SECONDS = 60;
export const MAX_FAILURES_PER_WINDOW = 10;

interface Store {
  count(key: string): Promise<number>;
  increment(key: string, windowSeconds: number): Promise<number>;
  clear(key: string): Promise<void>;
}

class MemoryStore implements Store {
  private counters = new Map<string, { count: number; resetAt: number }>();
  async count(key: string) {
    const entry = this.counters.get(key);
    if (!entry || entry.resetAt <= Date.now()) return 0;
    return entry.count;
  }
  async increment(key: string, windowSeconds: number) {
    const now = Date.now();
    let entry = this.counters.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.counters.set(key, entry);
      if (this.counters.size > 50_000) this.sweep(now);
    }
    entry.count += 1;
    return entry.count;
  }
  async clear(key: string) {
    this.counters.delete(key);
  }
  private sweep(now: number) {
    for (const [k, v] of this.counters) if (v.resetAt <= now) this.counters.delete(k);
  }
}

class RedisStore implements Store {
  private client: ReturnType<typeof createClient>;
  private ready: Promise<unknown>;
  constructor(url: string) {
    this.client = createClient({ url });
    this.client.on('error', (error) => console.error('redis (rate limits):', error.message));
    this.ready = this.client.connect();
  }
  async count(key: string) {
    await this.ready;
    return Number((await this.client.get(`rl:${key}`)) ?? 0);
  }
  async increment(key: string, windowSeconds: number) {
    await this.ready;
    const [count] = (await this.client.multi().incr(`rl:${key}`).expire(`rl:${key}`, windowSeconds, 'NX').exec()) as [number];
    return Number(count);
  }
  async clear(key: string) {
    await this.ready;
    await this.client.del(`rl:${key}`);
  }
}

const STORE_KEY = Symbol.for('lvyou.rate-limit-store');
type WithStore = typeof globalThis & { [STORE_KEY]?: Store };

function store(): Store {
  const g = globalThis as WithStore;
  return (g[STORE_KEY] ??= getConfig().REDIS_URL ? new RedisStore(getConfig().REDIS_URL!) : new MemoryStore());
}

/** Tests start each case with fresh counters. */
export function resetRateLimits(): void {
  (globalThis as WithStore)[STORE_KEY] = new MemoryStore();
}

/** Throws 429 RATE_LIMIT_EXCEEDED (Retry-After 60) when any of these keys already reached the limit. */
export async function assertNotRateLimited(keys: string[], limit = MAX_FAILURES_PER_WINDOW): Promise<void> {
  const counts = await Promise.all(keys.map((k) => store().count(k)));
  if (counts.some((c) => c >= limit)) throw new AppError('RATE_LIMIT_EXCEEDED', { retryAfter: RATE_WINDOW_SECONDS });
}

export async function recordFailure(keys: string[]): Promise<void> {
  await Promise.all(keys.map((k) => store().increment(k, RATE_WINDOW_SECONDS)));
}

export async function clearFailures(keys: string[]): Promise<void> {
  await Promise.all(keys.map((k) => store().clear(k)));
}
