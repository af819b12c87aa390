import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { notificationData } from '~/schemas/notifications';
import { markRead, notificationIdParam } from '~/services/messaging/notifications.server';

export const contract = defineApi({
  path: '/api/v1/notifications/{id}/read',
  tags: ['notifications'],
  operations: {
    PUT: { summary: 'Mark one of the caller’s notifications read', auth: 'user', data: notificationData, errors: ['UNAUTHORIZED', 'NOT_FOUND'] },
  },
});

const handlers = apiHandlers(contract, {
  PUT: async ({ session, params }) => ({ notification: await markRead(session.user.id, notificationIdParam(params.id)) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
