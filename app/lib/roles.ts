/** The three account types (SPEC §6); kept here so client code can use it without importing server modules. */
export type RoleType = 'traveler' | 'guide' | 'admin';

/** Where each role lands (SPEC §2 /login-success and the header's role-home link): /admin, /guide or /traveler. */
export function roleHomePath(type: RoleType | null | undefined): string {
  switch (type) {
    case 'admin':
      return '/admin';
    case 'guide':
      return '/guide';
    case 'traveler':
      return '/traveler';
    default:
      return '/';
  }
}
