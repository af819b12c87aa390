import { apiHandlers, apiLocale } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { agreementStatusSchema } from '~/schemas/terms';
import { agreementStatus } from '~/services/accounts/terms.server';

export const contract = defineApi({
  path: '/api/v1/terms/agreement-status',
  tags: ['terms'],
  operations: {
    GET: {
      summary: 'Whether the caller must agree to the current terms of service',
      description: 'True for a user who has not agreed to the current text of the Accept-Language language (else zh-TW): a new user, and the readers of a language after a new version is published in it. Always false for admins.',
      auth: 'user',
      data: agreementStatusSchema,
      errors: ['UNAUTHORIZED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, request }) => agreementStatus(session.user, apiLocale(request)),
});
export const loader = handlers.loader;
export const action = handlers.action;
