/**
 * The time the order rules read (issue 10: "the clock is injectable"). Production reads the real clock;
 * tests move it past a tour day with `setClock` (kept on globalThis, so the test and the app it serves over
 * HTTP, which Vite loads as a second module graph, see the same clock).
 */
const CLOCK_KEY = Symbol.for('lvyou.clock');
type WithClock = typeof globalThis & { [CLOCK_KEY]?: () => Date };

export function now(): Date {
  return (globalThis as WithClock)[CLOCK_KEY]?.() ?? new Date();
}

/** Tests only: a fixed time, a function, or undefined for the real clock again. */
export function setClock(clock: Date | (() => Date) | undefined): void {
  (globalThis as WithClock)[CLOCK_KEY] = clock === undefined ? undefined : typeof clock === 'function' ? clock : () => new Date(clock);
}
