import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { TestResponse, TestServer } from './http-server';

/**
 * Checks real answers against the published contract: the OpenAPI document the server serves at
 * /api/v1/openapi.json. `expectContract(server, 'POST', '/api/v1/auth/login', response)` fails when the
 * status is not documented for that operation or the body does not match the documented schema.
 */
type Doc = { paths: Record<string, Record<string, { responses: Record<string, any> }>>; components: unknown };

const cache = new WeakMap<TestServer, Promise<{ doc: Doc; ajv: Ajv2020 }>>();

export function openApiDocument(server: TestServer): Promise<{ doc: Doc; ajv: Ajv2020 }> {
  let pending = cache.get(server);
  if (!pending) {
    pending = server.request('/api/v1/openapi.json').then((response) => {
      expect(response.status).toBe(200);
      const doc = response.json as Doc;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema({ $id: 'openapi', components: doc.components });
      return { doc, ajv };
    });
    cache.set(server, pending);
  }
  return pending;
}

export async function expectContract(server: TestServer, method: string, path: string, response: TestResponse): Promise<void> {
  const { doc, ajv } = await openApiDocument(server);
  const operation = doc.paths[path]?.[method.toLowerCase()];
  expect(operation, `${method} ${path} is not in the OpenAPI document`).toBeDefined();
  const documented = operation!.responses[String(response.status)];
  expect(documented, `${method} ${path} answered ${response.status}, which the document does not list`).toBeDefined();
  const schema = documented.content?.['application/json']?.schema;
  if (!schema) return;
  // References point into the document's components.
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')));
  const valid = validate(response.json);
  expect(valid, `${method} ${path} ${response.status}: ${ajv.errorsText(validate.errors)}\n${response.text.slice(0, 500)}`).toBe(true);
}
