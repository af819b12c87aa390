import { z } from 'zod';
import { apiHandlers, apiLocale } from '~/http/api.server';
import { clientIp } from '~/http/session.server';
import { defineApi } from '~/http/contract';
import { registerSchema } from '~/schemas/account-forms';
import { publicUserSchema } from '~/schemas/responses';
import { register, toPublicUser } from '~/services/accounts/accounts.server';

export const contract = defineApi({
  path: '/api/v1/auth/register',
  tags: ['auth'],
  operations: {
    POST: {
      summary:
        'Create a traveler or guide account; a 6-digit code is mailed to confirm the address. With agreeToTerms: true (and the termsVersion read) the agreement to the current terms is recorded (termsAgreedVersion); without it, or for a version no longer current, nothing is recorded and agreement-status asks later',
      auth: 'public',
      body: registerSchema,
      status: 201,
      data: z.object({ user: publicUserSchema, requiresVerification: z.literal(true), termsAgreedVersion: z.string().nullable() }),
      errors: ['EMAIL_TAKEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ request, context, body }) => {
    const user = await register(body, { ip: clientIp(context), locale: apiLocale(request) });
    return { user: toPublicUser(user), requiresVerification: true as const, termsAgreedVersion: user.termsAgreedVersion };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
