/**
 * The size rule for availability saves (SPEC §8 Slots): an answer over 10,000 bytes is logged as a warning, in
 * the browser for the page's save and on the server for the API's. Pure, so both sides count the same way.
 */
export const SAVE_ANSWER_WARN_BYTES = 10_000;

/** Bytes of a value written as JSON (UTF-8), as it travels in an answer body. */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value) ?? '').length;
}

export const isLargeSaveAnswer = (bytes: number) => bytes > SAVE_ANSWER_WARN_BYTES;
