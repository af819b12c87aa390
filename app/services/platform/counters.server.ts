/**
 * The product's counters for the metrics (issue 25): what the services count as it happens, read by
 * server/observability.ts when METRICS_PORT is scraped (Prometheus text). Counts are per process (each instance
 * counts its own; Prometheus sums them). Labels are short fixed words (an error code, a limit's name, a mail
 * kind), never an id or an address, so the series stay few.
 *
 * The counts live on `globalThis`: build/server.js and the Remix build each bundle this module, and both must
 * count into the same place.
 */
export const COUNTERS = {
  bookings_created_total: 'Bookings created (orders inserted)',
  bookings_refused_total: 'Bookings refused, by reason (the error code: TIME_CONFLICT, RATE_LIMIT_EXCEEDED, ...)',
  outbox_deliveries_total: 'Outbox deliveries (mail), by kind and outcome: sent, retry (failed, tried again later), failed (given up)',
  rate_limit_refusals_total: 'Requests refused by a rate limit, by limit',
  connections_refused_total: 'Connections closed on arrival: their client address already held MAX_CONNECTIONS_PER_ADDRESS',
  payment_events_total: 'Verified payment provider events, by outcome: applied, duplicate, ignored (refused by the payment state machine), unknown_payment',
  payment_actions_total: 'Provider actions done by the payment lane, by action: capture, void, refund, void_stray',
  payment_actions_refused_total: 'Provider actions the provider refused (not retried; see the reconciliation), by action',
  payment_refunds_in_doubt_total: 'Refunds whose outcome at the provider is unknown (no answer, or a crash during the call): held for an admin, never sent again by themselves',
} as const;

export type CounterName = keyof typeof COUNTERS;

type Store = Map<CounterName, Map<string, { labels: Record<string, string>; value: number }>>;
const KEY = Symbol.for('lvyou.counters');

function store(): Store {
  const g = globalThis as typeof globalThis & { [KEY]?: Store };
  return (g[KEY] ??= new Map());
}

/** Adds one to the counter `name` with these labels. */
export function countEvent(name: CounterName, labels: Record<string, string> = {}): void {
  const s = store();
  let series = s.get(name);
  if (!series) s.set(name, (series = new Map()));
  const key = Object.values(labels).join('\u0000');
  const entry = series.get(key);
  if (entry) entry.value += 1;
  else series.set(key, { labels, value: 1 });
}

/** Every counter with its series (a counter nothing counted yet has none), for the metrics page. */
export function counterFamilies(): Array<{ name: CounterName; help: string; samples: Array<[Record<string, string>, number]> }> {
  const s = store();
  return (Object.keys(COUNTERS) as CounterName[]).map((name) => ({
    name,
    help: COUNTERS[name],
    samples: [...(s.get(name)?.values() ?? [])].map(({ labels, value }) => [labels, value] as [Record<string, string>, number]),
  }));
}

/**
 * A rate-limit counter key's name without its subject: `login:account-ip:a@b.c:1.2.3.4` → `login:account-ip`,
 * `chat-send:42` → `chat-send`. The leading segments made of letters and dashes only.
 */
export function limitName(key: string): string {
  const parts: string[] = [];
  for (const part of key.split(':')) {
    if (!/^[a-z][a-z-]*$/.test(part) || parts.length === 2) break;
    parts.push(part);
  }
  return parts.join(':') || 'other';
}
