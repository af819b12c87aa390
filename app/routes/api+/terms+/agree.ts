import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { termsAgreeSchema, termsAgreementSchema } from '~/schemas/terms';
import { agreeToTerms } from '~/services/accounts/terms.server';

export const contract = defineApi({
  path: '/api/terms/agree',
  tags: ['terms'],
  operations: {
    POST: {
      summary: 'Record that the caller agreed to the current terms of service',
      description: 'termsId and termsVersion name the current text of one language (GET /api/terms/current). Any other (the terms changed meanwhile) is 400 VALIDATION_ERROR and records nothing. Agreeing again is harmless.',
      auth: 'user',
      body: termsAgreeSchema,
      data: termsAgreementSchema,
      errors: ['UNAUTHORIZED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ session, body }) => agreeToTerms(session.user, body),
});
export const loader = handlers.loader;
export const action = handlers.action;
