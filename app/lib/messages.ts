/**
 * A message shown to a person is either an i18n key (the schemas' validation.* keys, checked in the
 * browser too) or text the server already translated (a service failure, in the reader's language).
 * Keys are dotted identifiers; anything else is shown as it is.
 */
export function translateMessage(t: (key: string) => string, message: string): string {
  return /^[a-z][\w-]*(\.[\w-]+)+$/i.test(message) ? t(message) : message;
}
