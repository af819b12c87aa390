import { apiHandlers } from '~/http/api.server';
import { openApiContract } from '../__openapi-contract';
import { openApiDocument } from '../__openapi-document.server';

export const contract = openApiContract;

const handlers = apiHandlers(contract, {
  GET: async () =>
    new Response(JSON.stringify(openApiDocument()), {
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
    }),
});
export const loader = handlers.loader;
export const action = handlers.action;
