/** Placeholder: the email verification banner (SPEC §2 Email banner) — owned by the auth-ui work. */
export function EmailBanner() {
  return null;
}
