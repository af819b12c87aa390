import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Route modules a person can read in one sitting (issue 34): loader, action and view in at most 300 lines; a page's
 * private parts go beside it as `__name.tsx`, which are not routes (vite.config.ts ignores `__*`).
 */
const ROUTES = path.resolve(__dirname, '../../app/routes');
const MAX_LINES = 300;

function routeModules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeModules(full);
    return /\.(tsx?|jsx?)$/.test(entry.name) && !entry.name.startsWith('__') && !/\.(server|client)\./.test(entry.name) ? [full] : [];
  });
}

describe('route modules', () => {
  it(`are at most ${MAX_LINES} lines each`, () => {
    const modules = routeModules(ROUTES);
    expect(modules.length).toBeGreaterThan(50);
    const long = modules
      .map((file) => ({ file: path.relative(ROUTES, file), lines: fs.readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
