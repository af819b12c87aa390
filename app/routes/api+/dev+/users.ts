import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { devCreateUserSchema, devUserSchema } from '~/schemas/dev-users';
import { devCreateUser, devListUsers } from '~/services/admin/dev-users.server';

const DEV_NOTE =
  'Development only (SPEC §7 Dev, docs/decisions/030-debug-routes.md): outside production any logged-in account; in production 404 NOT_FOUND for everyone but an admin. No call creates, changes or deletes an admin.';

export const contract = defineApi({
  path: '/api/dev/users',
  tags: ['dev'],
  operations: {
    GET: {
      summary: 'Every account with its flags (debug)',
      description: DEV_NOTE,
      auth: 'user',
      cache: 'no-store',
      developmentOnly: true,
      data: z.object({ users: z.array(devUserSchema) }),
      errors: ['UNAUTHORIZED', 'NOT_FOUND'],
    },
    POST: {
      summary: 'Create a ready-to-use test traveler or guide (debug): address verified and current terms agreed unless told otherwise, no mail',
      description: DEV_NOTE,
      auth: 'user',
      developmentOnly: true,
      body: devCreateUserSchema,
      status: 201,
      data: z.object({ user: devUserSchema }),
      errors: ['UNAUTHORIZED', 'NOT_FOUND', 'EMAIL_TAKEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async () => ({ users: await devListUsers() }),
  POST: async ({ session, body }) => ({ user: await devCreateUser(session.user, body) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
