import { z } from 'zod';
import { apiHandlers, parseBody } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { guideProfileSchema, profileSchemaFor, travelerProfileSchema } from '~/schemas/profile';
import { adminUserData, userData } from '~/schemas/responses';
import { archiveUser, toAdminUser } from '~/services/user-admin.server';
import { assertSelfOrAdmin } from '~/services/access.server';
import { getProfile, toPublicUser, updateProfile, userIdParam } from '~/services/users.server';

export const contract = defineApi({
  path: '/api/v1/users/{id}',
  tags: ['users'],
  operations: {
    GET: {
      summary: 'One account (the account itself or an admin)',
      auth: 'user',
      data: userData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'USER_NOT_FOUND'],
    },
    PUT: {
      summary: 'Replace the editable profile fields (guides also city, language, price, description)',
      description:
        'An omitted bio clears it. Changing the email mails a code to the new address; the old address stays until the new one is confirmed.',
      auth: 'user',
      body: z.union([travelerProfileSchema, guideProfileSchema]),
      // The rules depend on the kind of account edited, known only after the access check.
      parseBody: 'handler',
      data: userData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'USER_NOT_FOUND', 'EMAIL_TAKEN'],
    },
    DELETE: {
      summary: 'Archive an account (admin); its sessions end at once',
      auth: { roles: ['admin'] },
      data: adminUserData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'USER_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, params }) => ({ user: toPublicUser(await getProfile(session.user, userIdParam(params.id))) }),
  PUT: async ({ request, session, params }) => {
    const id = userIdParam(params.id);
    // Access first (403/404 before 400), then the rules for that kind of account.
    const target = await assertSelfOrAdmin(session.user, id, { write: true });
    const input = await parseBody(request, profileSchemaFor(target.type));
    return { user: toPublicUser(await updateProfile(session.user, id, input)) };
  },
  DELETE: async ({ session, params }) => ({ user: toAdminUser(await archiveUser(session.user, userIdParam(params.id))) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
