import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { guideProfileSchema, profileSchemaFor, travelerProfileSchema } from '~/schemas/profile';
import { adminUserData, userData } from '~/schemas/responses';
import { archiveUser, toAdminUser } from '~/services/accounts/user-admin.server';
import { assertSelfOrAdmin } from '~/services/platform/access.server';
import { editableProfileOf, getProfile, toPublicUser, updateProfile, userIdParam, type UserRow } from '~/services/accounts/users.server';

export const contract = defineApi({
  path: '/api/v1/users/{id}',
  tags: ['users'],
  operations: {
    GET: {
      summary: 'One account (the account itself or an admin)',
      auth: 'user',
      cache: 'no-store',
      data: userData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'USER_NOT_FOUND'],
    },
    PUT: {
      summary: 'Update the editable profile fields (guides also city, language, price, description)',
      description:
        'A field the body leaves out keeps its value; a field present is validated (null or an empty bio clears it). ' +
        'Another account gets 403 (404 for an unknown or archived one) whatever the body. ' +
        'Changing the email mails a code to the new address; the old address stays until the new one is confirmed.',
      auth: 'user',
      body: z.union([travelerProfileSchema, guideProfileSchema]),
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
  PUT: {
    authorize: ({ session, params }) => assertSelfOrAdmin(session.user, userIdParam(params.id), { write: true }),
    // The rules for the kind of account edited, over its current values.
    body: (target: UserRow) => profileSchemaFor(target.type),
    current: editableProfileOf,
    handle: async ({ session, body, target }) => ({ user: toPublicUser(await updateProfile(session.user, (target as UserRow).id, body)) }),
  },
  DELETE: async ({ session, params }) => ({ user: toAdminUser(await archiveUser(session.user, userIdParam(params.id))) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
