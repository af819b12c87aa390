import fs from 'node:fs';
import path from 'node:path';
import { UNSAFE_defineRoutes as defineRoutes } from '@remix-run/dev';
import { flatRoutes } from 'remix-flat-routes';
import { describe, expect, it } from 'vitest';
import { BUNDLES, SHELL_BUNDLES, type Bundle } from '~/i18n/bundles';

/**
 * The browser hydrates a page with only the translation files its routes name (`handle.i18n`, app/i18n/bundles.ts)
 * while the server renders with every string. A component that renders words of an area its page does not name
 * renders the key in the browser and the words on the server: a hydration mismatch (issue 19: GuideCard's
 * `search.card.*` on /traveler and /favorites). So: every area whose keys appear in the code a route's page
 * imports (components included, transitively) is named by that route or a route above it; the root layout's own
 * code uses only the shell's files. Keys are found as string literals and template-literal heads `'<area>.…'`.
 */
const APP = path.resolve('app');
const AREAS = BUNDLES.filter((bundle) => bundle !== 'common');
// A key of an area (`'search.card.notBookable'`), or the head of a template literal (`\`search.writtenIn.${`).
const AREA_KEY = new RegExp(`(?<![\\w.~/-])['"\`]((${AREAS.join('|')})\\.[A-Za-z_][\\w.]*)(['"\`]|\\$\\{)`, 'g');

/** Keys common.json holds for an area (the header's `account.header.*`, …): in every page's shell. */
function flatKeys(tree: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => (v && typeof v === 'object' ? flatKeys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]));
}
const SHELL_KEYS = flatKeys(JSON.parse(fs.readFileSync(path.join(APP, 'locales/zh-TW/common.json'), 'utf8')) as Record<string, unknown>);
function inShell(key: string, isPrefix: boolean): boolean {
  if (isPrefix) return SHELL_KEYS.some((k) => k.startsWith(key));
  return SHELL_KEYS.some((k) => k === key || k.startsWith(`${key}_`));
}
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveImport(from: string, spec: string): string | undefined {
  const bare = spec.split('?')[0]!;
  let base: string;
  if (bare.startsWith('~/')) base = path.join(APP, bare.slice(2));
  else if (bare.startsWith('.')) base = path.resolve(path.dirname(from), bare);
  else return undefined; // a package
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`, path.join(base, 'index.tsx'), path.join(base, 'index.ts')]) {
    if (/\.(tsx?)$/.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Modules that can render in the browser: server-only modules (`*.server.*`) never do. */
function rendersInBrowser(file: string): boolean {
  return !/\.server\.[jt]sx?$/.test(file) && !file.includes(`${path.sep}.server${path.sep}`);
}

const areaCache = new Map<string, Set<Bundle>>();
function areasOf(file: string): Set<Bundle> {
  let areas = areaCache.get(file);
  if (!areas) {
    areas = new Set(
      [...fs.readFileSync(file, 'utf8').matchAll(AREA_KEY)].filter((m) => !inShell(m[1]!, m[3] === '${')).map((m) => m[2] as Bundle),
    );
    areaCache.set(file, areas);
  }
  return areas;
}

/** Area → the files (route module and what it imports, transitively) that use its keys. */
function areasUsedBy(entry: string): Map<Bundle, string[]> {
  const seen = new Set<string>();
  const queue = [entry];
  const used = new Map<Bundle, string[]>();
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const area of areasOf(file)) used.set(area, [...(used.get(area) ?? []), path.relative(APP, file)]);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (m[1]) continue; // `import type`
      const target = resolveImport(file, (m[2] ?? m[3])!);
      if (target && rendersInBrowser(target)) queue.push(target);
    }
  }
  return used;
}

/** A route's `handle.i18n`, read from its source (`export const handle: I18nHandle = { i18n: [...] }`, or re-exported). */
function handleAreas(file: string): Bundle[] {
  const src = fs.readFileSync(file, 'utf8');
  const m = src.match(/export const handle\b[^=]*=\s*\{\s*i18n:\s*\[([^\]]*)\]/);
  if (m) return [...m[1]!.matchAll(/['"](\w+)['"]/g)].map((a) => a[1] as Bundle);
  const reexport = src.match(/export\s*\{[^}]*\bhandle\b[^}]*\}\s*from\s*['"]([^'"]+)['"]/);
  const from = reexport ? resolveImport(file, reexport[1]!) : undefined;
  if (from) return handleAreas(from);
  expect(src, `${path.relative(APP, file)}: write the handle as \`export const handle: I18nHandle = { i18n: [...] }\``).not.toMatch(/\bhandle\b/);
  return [];
}

/** A route that renders a page (a default export); resource routes only answer (their toasts name their own file). */
function rendersPage(file: string): boolean {
  return /export\s+default\b|export\s*\{[^}]*\bdefault\b/.test(fs.readFileSync(file, 'utf8'));
}

const manifest = flatRoutes('routes', defineRoutes, {
  appDir: APP,
  ignoredRouteFiles: ['**/.*', '**/*.css', '**/*.test.{js,jsx,ts,tsx}', '**/__*.*', '**/*.server.*', '**/*.client.*'],
});
const pages = Object.values(manifest).filter((route) => rendersPage(path.join(APP, route.file)));

describe('translation files a page names (handle.i18n)', () => {
  it('finds the route modules and the keys', () => {
    expect(pages.length).toBeGreaterThan(20);
    expect(areasUsedBy(path.join(APP, 'components/guide-card.tsx')).has('search')).toBe(true);
  });

  it("the root layout's own code uses only the shell's files", () => {
    const used = areasUsedBy(path.join(APP, 'root.tsx'));
    const extra = [...used].filter(([area]) => !SHELL_BUNDLES.includes(area)).map(([area, files]) => `${area} (${files.join(', ')})`);
    expect(extra).toEqual([]);
  });

  it.each(pages.map((route) => [route.id, route] as const))('%s names every area its page renders', (_id, route) => {
    const named = new Set<Bundle>(SHELL_BUNDLES);
    for (let r: (typeof manifest)[string] | undefined = route; r; r = r.parentId && r.parentId !== 'root' ? manifest[r.parentId] : undefined) {
      for (const area of handleAreas(path.join(APP, r.file))) named.add(area);
    }
    const used = areasUsedBy(path.join(APP, route.file));
    const missing = [...used].filter(([area]) => !named.has(area)).map(([area, files]) => `${area} (used in ${files.join(', ')})`);
    expect(missing, `add these to handle.i18n of app/${route.file}`).toEqual([]);
  });
});
