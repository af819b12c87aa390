/** An email address as accounts are keyed: trimmed, lower case (the users table's unique index is on lower(email)). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
