/**
 * The fixed lists of trust (issue 11), defined once: the database's columns and checks (db/schema.ts), the API's
 * schemas (app/schemas/trust.ts) and the pages read these. Pure: the browser may import it.
 */

/** A guide's standing set by an admin: listed while active; suspended guides are hidden. */
export const GUIDE_STATUSES = ['active', 'suspended'] as const;
export type GuideStatus = (typeof GUIDE_STATUSES)[number];

/** A guide photo: uploads wait for an admin's review (SPEC §4 Photo review). */
export const PHOTO_STATUSES = ['pending_review', 'approved', 'rejected'] as const;
export type PhotoStatus = (typeof PHOTO_STATUSES)[number];

/** An ID verification application. */
export const ID_VERIFICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type IdVerificationStatus = (typeof ID_VERIFICATION_STATUSES)[number];
