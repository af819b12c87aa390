import { limitLog } from '~/http/request-context.server';
import { apiHandlers } from '~/http/api.server';
import { clientIp } from '~/http/session.server';
import { defineApi } from '~/http/contract';
import { confirmEmailChangeSchema } from '~/schemas/account-forms';
import { userData } from '~/schemas/responses';
import { assertMayConfirmEmailChange, confirmEmailChange, toPublicUser, userIdParam } from '~/services/accounts/users.server';

export const contract = defineApi({
  path: '/api/v1/users/{id}/email/confirm',
  tags: ['users'],
  operations: {
    POST: {
      summary: 'Confirm the pending email address with the code mailed to it (the account itself only)',
      description:
        'PUT /api/v1/users/{id} with a new email keeps it as pendingEmail and mails it a code; this makes it the ' +
        'account email (verified). 409 EMAIL_TAKEN when another account took the address meanwhile.',
      auth: 'user',
      body: confirmEmailChangeSchema,
      data: userData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'USER_NOT_FOUND', 'INVALID_CODE', 'CODE_EXPIRED', 'EMAIL_TAKEN', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: {
    // Another account is 403 whatever the body: who may confirm is decided before the code is read.
    authorize: ({ session, params }) => assertMayConfirmEmailChange(session.user, userIdParam(params.id)),
    handle: async ({ request, context, session, params, body }) => {
      const user = await confirmEmailChange(session.user, userIdParam(params.id), body, { ip: clientIp(context), limits: limitLog(request) });
      return { user: toPublicUser(user) };
    },
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
