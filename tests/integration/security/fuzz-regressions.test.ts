import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';
import { createGuide } from '~server/seed/factories';

/**
 * What the fuzzer (fuzz.test.ts) found, one test each, so each stays fixed whatever seed the fuzzer runs with.
 */
useTestDatabase();
const server = useTestServer();

describe(`inputs the fuzzer found answering 500 (${testDriver})`, () => {
  it('a minimum rating too small for a `real` (5e-158) is read as 0, on the API and the search page', async () => {
    await createGuide({ ratingAverage: 4.5, ratingCount: 2 });
    const api = await server.request('/api/v1/guides?minRating=5.264563944009391e-158');
    expect(api.status, api.text.slice(0, 200)).toBe(200);
    expect(api.json.data.guides.length).toBeGreaterThan(0);
    const page = await server.request('/guides?minRating=5.264563944009391e-158');
    expect(page.status).toBe(200);
    // …and still filters: 4.999 rounds to 5, above every guide.
    expect((await server.request('/api/v1/guides?minRating=4.999')).json.data.guides).toEqual([]);
  });
});
