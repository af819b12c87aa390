import { describe, expect, it } from 'vitest';
import { unreadBadgeText } from '~/components/header';
import { roleHomePath } from '~/lib/roles';

describe('logged-in header helpers', () => {
  it('unread badge: hidden at 0, the count up to 99, then 99+ (SPEC §2 Header)', () => {
    expect([0, -1, 1, 9, 99, 100, 1234].map(unreadBadgeText)).toEqual([null, null, '1', '9', '99', '99+', '99+']);
  });

  it('role home: /admin, /guide, /traveler, else /', () => {
    expect(roleHomePath('admin')).toBe('/admin');
    expect(roleHomePath('guide')).toBe('/guide');
    expect(roleHomePath('traveler')).toBe('/traveler');
    expect(roleHomePath(null)).toBe('/');
  });
});
