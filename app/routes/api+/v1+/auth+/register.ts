import { z } from 'zod';
import { apiHandlers, apiLocale } from '~/http/api.server';
import { clientIp } from '~/http/auth.server';
import { defineApi } from '~/http/contract';
import { registerSchema } from '~/schemas/auth';
import { publicUserSchema } from '~/schemas/responses';
import { register, toPublicUser } from '~/services/auth.server';

export const contract = defineApi({
  path: '/api/v1/auth/register',
  tags: ['auth'],
  operations: {
    POST: {
      summary: 'Create a traveler or guide account; a 6-digit code is mailed to confirm the address',
      auth: 'public',
      body: registerSchema,
      status: 201,
      data: z.object({ user: publicUserSchema, requiresVerification: z.literal(true) }),
      errors: ['EMAIL_TAKEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ request, context, body }) => {
    const user = await register(body, { ip: clientIp(context), locale: apiLocale(request) });
    return { user: toPublicUser(user), requiresVerification: true as const };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
