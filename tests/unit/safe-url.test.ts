import { describe, expect, it } from 'vitest';
import { parseIdParam } from '~/lib/ids';
import { safeRedirectPath } from '~/lib/safe-url';

describe('safeRedirectPath: only paths on this origin', () => {
  it('keeps same-origin paths with their query and fragment', () => {
    expect(safeRedirectPath('/guides?page=2')).toBe('/guides?page=2');
    expect(safeRedirectPath('/me?tab=orders#top')).toBe('/me?tab=orders#top');
    expect(safeRedirectPath('/guides/台北')).toBe('/guides/%E5%8F%B0%E5%8C%97');
  });

  it.each([
    ['protocol-relative', '//evil.example'],
    ['tab that browsers drop', '/\t/evil.example'],
    ['newline (header injection and dropped by browsers)', '/\n/evil.example'],
    ['CR LF in the middle', '/me\r\nSet-Cookie: x=1'],
    ['backslash read as slash', '/\\evil.example'],
    ['backslash later on', '/\\/evil.example'],
    ['dot segment that resolves to //', '/.//evil.example'],
    ['absolute URL', 'https://evil.example/'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['NUL byte', '/me\u0000'],
    ['not a string', 42],
    ['empty', ''],
  ])('refuses %s', (_label, value) => {
    expect(safeRedirectPath(value, '/fallback')).toBe('/fallback');
  });
});

describe('parseIdParam', () => {
  it('reads positive int4 ids only', () => {
    expect(parseIdParam('42')).toBe(42);
    expect(parseIdParam(2_147_483_647)).toBe(2_147_483_647);
    for (const bad of ['0', '-1', '007', '1e3', 'abc', '', '99999999999', '2147483648', undefined, null]) {
      expect(parseIdParam(bad as string | undefined)).toBeUndefined();
    }
  });
});
