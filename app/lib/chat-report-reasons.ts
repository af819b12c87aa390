/**
 * Why a participant reports a chat message (issue 35): a short fixed list, defined once for the database column,
 * the report form, the API body and the admin queue. "other" asks for the reporter's own words.
 */
export const CHAT_REPORT_REASONS = ['spam', 'harassment', 'offPlatform', 'other'] as const;
export type ChatReportReason = (typeof CHAT_REPORT_REASONS)[number];
/** The longest free text a report takes. */
export const CHAT_REPORT_NOTE_MAX = 500;
