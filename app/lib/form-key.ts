/** The hidden field of a web form's one-time key (app/http/form-keys.server.ts, docs/decisions/042). */
export const FORM_KEY_FIELD = 'idempotencyKey';
