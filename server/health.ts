/**
 * "Does the database answer?" for /api/ping. A successful check stands for `freshForMs` (1 s by default): health
 * checks poll every 30 s and get a new check each time, while a busy ping (clients waking the backend) no longer
 * puts one query per request on the database (on PGlite, the server's own thread; a third of a busy ping's CPU).
 * A failed check is never kept, so recovery shows at the next request; checks that overlap share one query.
 */
export function databaseHealthCheck(query: () => Promise<unknown>, freshForMs = 1_000): () => Promise<void> {
  let answeredAt = -Infinity;
  let running: Promise<void> | undefined;
  return () => {
    if (performance.now() - answeredAt < freshForMs) return Promise.resolve();
    running ??= query()
      .then(() => {
        answeredAt = performance.now();
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
}
