/**
 * How many people one booking may bring (docs/decisions/016-group-size.md): each guide sets a maximum group size
 * between GROUP_SIZE_MIN and GROUP_SIZE_MAX (DEFAULT_MAX_GROUP_SIZE until they change it); a booking's number of
 * people is at least GROUP_SIZE_MIN and at most that guide's maximum. The column's default and check in
 * db/schema.ts repeat these numbers (db/ may not import app/); tests/integration/http/group-size.test.ts ties them.
 */
export const GROUP_SIZE_MIN = 1;
export const GROUP_SIZE_MAX = 50;
export const DEFAULT_MAX_GROUP_SIZE = 10;
