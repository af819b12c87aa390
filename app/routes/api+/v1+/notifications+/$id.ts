import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { deleteNotification, notificationIdParam } from '~/services/messaging/notifications.server';

export const contract = defineApi({
  path: '/api/v1/notifications/{id}',
  tags: ['notifications'],
  operations: {
    DELETE: { summary: 'Delete one of the caller’s notifications', auth: 'user', data: z.object({ id: z.int() }), errors: ['UNAUTHORIZED', 'NOT_FOUND'] },
  },
});

const handlers = apiHandlers(contract, {
  DELETE: async ({ session, params }) => deleteNotification(session.user.id, notificationIdParam(params.id)),
});
export const loader = handlers.loader;
export const action = handlers.action;
