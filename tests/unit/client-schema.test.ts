import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '~/routes/api+/__openapi-document.server';
import { CLIENT_SCHEMA_FILE, renderClientSchema } from '../../scripts/lib/client-schema';

/**
 * Issue 33: the typed client's generated types (packages/client/src/schema.d.ts) are committed and must be what the
 * current OpenAPI document gives, so a changed route contract cannot leave the client behind.
 */
describe('the typed client’s generated types', () => {
  it('match the current OpenAPI document', async () => {
    const expected = await renderClientSchema(openApiDocument());
    const committed = fs.existsSync(CLIENT_SCHEMA_FILE) ? fs.readFileSync(CLIENT_SCHEMA_FILE, 'utf8') : '';
    // Not toBe: a diff of an 800 kB file is no help; the message says what to do.
    if (committed !== expected) {
      const lines = [committed.split('\n'), expected.split('\n')] as const;
      const found = lines[1].findIndex((line, i) => line !== lines[0][i]);
      const at = found < 0 ? lines[1].length : found;
      expect.fail(
        `${CLIENT_SCHEMA_FILE} is stale (first difference at line ${at + 1}: committed ${JSON.stringify(lines[0][at])}, ` +
          `document gives ${JSON.stringify(lines[1][at])}). Run \`npm run client:generate\` and commit the file.`,
      );
    }
  });

  it('type the paths a client calls', () => {
    const text = fs.readFileSync(CLIENT_SCHEMA_FILE, 'utf8');
    for (const path of ['/api/v1/auth/login', '/api/v1/guides', '/api/v1/guides/{id}/availability-slots', '/api/v1/orders', '/api/v1/orders/{id}']) {
      expect(text).toContain(`"${path}": {`);
    }
  });
});
