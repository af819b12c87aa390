import { apiHandlers, apiLocale } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { agreementTermsSchema } from '~/schemas/terms';
import { currentTerms } from '~/services/accounts/terms.server';

export const contract = defineApi({
  path: '/api/terms/current',
  tags: ['terms'],
  operations: {
    GET: {
      summary: 'The current terms of service of the Accept-Language language (the zh-TW text, untranslated: true, when that language has none)',
      description: 'Each language has its own line of versions. The built-in terms (version 1.0.0, id 0) when neither that language nor zh-TW has an active version.',
      auth: 'public',
      data: agreementTermsSchema,
      errors: [],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ request }) => {
    return currentTerms(apiLocale(request));
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
