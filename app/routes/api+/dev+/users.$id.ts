import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { devUpdateUserSchema, devUserSchema } from '~/schemas/dev-users';
import { devDeleteUser, devTarget, devUpdateUser } from '~/services/admin/dev-users.server';
import type { UserRow } from '~/services/accounts/users.server';

const DEV_NOTE =
  'Development only (SPEC §7 Dev, docs/decisions/030-debug-routes.md): outside production any logged-in account; in production 404 NOT_FOUND for everyone but an admin. An admin account is 403 FORBIDDEN whatever the body.';

export const contract = defineApi({
  path: '/api/dev/users/{id}',
  tags: ['dev'],
  operations: {
    PUT: {
      summary: 'Change a test account’s name, kind (traveler or guide) or verification flags (debug)',
      description: DEV_NOTE,
      auth: 'user',
      developmentOnly: true,
      body: devUpdateUserSchema,
      data: z.object({ user: devUserSchema }),
      errors: ['UNAUTHORIZED', 'NOT_FOUND', 'FORBIDDEN', 'USER_NOT_FOUND'],
    },
    DELETE: {
      summary: 'Archive a test account; its sessions end (debug)',
      description: DEV_NOTE,
      auth: 'user',
      developmentOnly: true,
      data: z.object({ user: devUserSchema }),
      errors: ['UNAUTHORIZED', 'NOT_FOUND', 'FORBIDDEN', 'USER_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  PUT: {
    // Who is touched first: an admin is 403 before the body is read.
    authorize: ({ params }) => devTarget(params.id),
    handle: async ({ session, body, target }) => ({ user: await devUpdateUser(session.user, target as UserRow, body) }),
  },
  DELETE: async ({ session, params }) => ({ user: await devDeleteUser(session.user, await devTarget(params.id)) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
