/**
 * A promise that rejects with the signal's reason when it aborts (at once when it already has), and never settles
 * otherwise: raced against work that may not stop by itself, so the caller never waits past the signal.
 */
export function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
