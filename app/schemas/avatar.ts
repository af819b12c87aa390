/**
 * What POST /me/avatar answers the JS crop dialog (`_format=json` or `Accept: application/json`): the new
 * avatar URL (null after removal), or the translated reason with the error's status.
 */
export type AvatarUploadAnswer = { ok: true; avatarUrl: string | null } | { ok: false; message: string };
