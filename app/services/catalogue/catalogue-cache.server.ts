import type { DatabaseHandle } from '~db/client';

/**
 * Reads of the public catalogue (guide search, guide pages) kept in memory until the data under them
 * changes (issue 8: on the embedded database every query runs in this process's one WASM thread, so a
 * busy /guides spent most of its time re-running the same search).
 *
 * What "changes" means is decided by the database, not by the code that writes: triggers on the tables a
 * listing reads (migration 0005_catalogue_changes) NOTIFY `catalogue_changed`, which PostgreSQL delivers only
 * after the writing transaction commits, from any process and any code path (services, admin scripts, test
 * factories). Each notice starts a new generation and empties the cache. A read that was running while a
 * notice arrived is returned but not kept, so a result computed from data older than the notice is never
 * served afterwards. Until `startCatalogueCache` has a listener running (tests, scripts, a lost
 * connection), every read goes to the database.
 */

export const CATALOGUE_CHANNEL = 'catalogue_changed';
/** Distinct searches kept; the oldest entry leaves first. */
const MAX_ENTRIES = 500;
/** After a lost listener connection, how long until it is opened again. */
const RELISTEN_MS = 5_000;

interface CacheState {
  listening: boolean;
  generation: number;
  entries: Map<string, { generation: number; value: Promise<unknown> }>;
  stop?: () => Promise<void>;
  retry?: ReturnType<typeof setTimeout>;
}

// The server entry and the Remix bundle each carry a copy of this module: the state lives on globalThis.
const STATE_KEY = Symbol.for('lvyou.catalogue-cache');
function state(): CacheState {
  const g = globalThis as typeof globalThis & { [STATE_KEY]?: CacheState };
  return (g[STATE_KEY] ??= { listening: false, generation: 0, entries: new Map() });
}

function changed() {
  const s = state();
  s.generation += 1;
  s.entries.clear();
}

/** Starts listening for catalogue changes on this database; from then on catalogue reads are cached. */
export async function startCatalogueCache(handle: DatabaseHandle): Promise<void> {
  const s = state();
  await stopCatalogueCache();
  const lost = () => {
    s.listening = false;
    changed();
    s.retry = setTimeout(() => void startCatalogueCache(handle).catch(lost), RELISTEN_MS);
    s.retry.unref();
  };
  s.stop = await handle.listen(CATALOGUE_CHANNEL, changed, lost);
  changed();
  s.listening = true;
}

export async function stopCatalogueCache(): Promise<void> {
  const s = state();
  if (s.retry) clearTimeout(s.retry);
  s.listening = false;
  changed();
  const stop = s.stop;
  s.stop = undefined;
  await stop?.();
}

/**
 * The value of `load()`, from memory while the catalogue has not changed since it was read. `key` must name
 * everything the result depends on (the query, the reader's language); the value is shared by every reader,
 * so callers never change it.
 */
export function cachedCatalogueRead<T>(key: string, load: () => Promise<T>): Promise<T> {
  const s = state();
  if (!s.listening) return load();
  const hit = s.entries.get(key);
  if (hit && hit.generation === s.generation) {
    // Most recently used entries stay longest.
    s.entries.delete(key);
    s.entries.set(key, hit);
    return hit.value as Promise<T>;
  }
  const generation = s.generation;
  const value = load();
  // Concurrent readers of one key share the one query in flight.
  s.entries.set(key, { generation, value });
  if (s.entries.size > MAX_ENTRIES) s.entries.delete(s.entries.keys().next().value!);
  value.then(
    () => {
      // Read while the catalogue changed: answer this reader, but never serve it again.
      if (s.generation !== generation && s.entries.get(key)?.value === value) s.entries.delete(key);
    },
    () => {
      if (s.entries.get(key)?.value === value) s.entries.delete(key);
    },
  );
  return value;
}
