import { apiHandlers, apiLocale } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { termsDocumentSchema } from '~/schemas/terms';
import { currentTerms } from '~/services/terms.server';

export const contract = defineApi({
  path: '/api/terms/current',
  tags: ['terms'],
  operations: {
    GET: {
      summary: 'The current terms of service in the Accept-Language language (zh-TW when that version has no translation)',
      description: 'The built-in terms (version 1.0.0, id 0) when no version is active.',
      auth: 'public',
      data: termsDocumentSchema,
      errors: [],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ request }) => {
    const { locale: _locale, ...document } = await currentTerms(apiLocale(request));
    return document;
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
