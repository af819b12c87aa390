/** Ids are int4 identity columns. */
export const MAX_ID = 2_147_483_647;

/**
 * An id from a URL segment: a positive whole number in the column's range, or undefined. "abc", "1e3", "-1",
 * "007" and "99999999999" name nothing, so callers answer 404 instead of sending them to the database.
 */
export function parseIdParam(raw: string | number | undefined | null): number | undefined {
  const text = typeof raw === 'number' ? String(raw) : (raw ?? '');
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > MAX_ID) return undefined;
  return Number(text);
}
