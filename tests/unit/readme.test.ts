import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoGuides, demoTravelers } from '~server/seed/demo-content';
import { DEMO_EMAIL_DOMAIN, DEMO_PASSWORD } from '~server/seed/demo';

/**
 * The README a newcomer reads (issue 19): it explains the repository from a clone (no link outside it), the
 * endpoint table stands whole, and the demo logins it gives are the ones the seed creates. The admin login
 * printed last is tested in tests/unit/startup-summary.test.ts.
 */
const root = path.resolve(__dirname, '../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const lines = readme.split('\n');

describe('README.md', () => {
  it('links only to files of the repository, and to the product and architecture overviews in docs/', () => {
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t) && !t.startsWith('#'));
    expect(targets).toEqual(expect.arrayContaining(['docs/product.md', 'docs/architecture.md']));
    for (const target of targets) {
      expect(target, 'a link out of the clone').not.toMatch(/^\.\.\//);
      expect(fs.existsSync(path.join(root, target.split('#')[0]!)), target).toBe(true);
    }
    expect(readme).not.toMatch(/shared\/(SPEC|ARCHITECTURE)\.md/);
  });

  it('lists the endpoints in one table, not cut in two by paragraphs', () => {
    const rows = lines.flatMap((line, i) => (/^\| `(GET|POST|PUT|PATCH|DELETE)\b/.test(line) ? [i] : []));
    expect(rows.length).toBeGreaterThan(20);
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    // Every line from the first endpoint row to the last is a row of the same table.
    expect(lines.slice(first, last + 1).filter((line) => !line.startsWith('|'))).toEqual([]);
    expect(lines[first - 1]).toBe('|---|---|---|');
  });

  it('gives the demo logins the seed creates: every traveler, the guides’ range and the password', () => {
    expect(readme).toContain(`\`${DEMO_PASSWORD}\``);
    const lastGuide = `guide${String(demoGuides.length).padStart(2, '0')}@${DEMO_EMAIL_DOMAIN}`;
    expect(readme).toContain(`\`guide01@${DEMO_EMAIL_DOMAIN}\` … \`${lastGuide}\``);
    for (const traveler of demoTravelers) expect(readme, traveler.emailLocalPart).toContain(`\`${traveler.emailLocalPart}\``);
    expect(readme).toContain(`@${DEMO_EMAIL_DOMAIN}`);
  });

  it('says where the generated admin login is printed, and what npm’s install-scripts notice means', () => {
    expect(readme).toMatch(/prints its login as the very last line,\s+after `listening on/);
    expect(readme).toMatch(/npm warn install-scripts/);
  });
});
