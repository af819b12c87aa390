import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { notificationListData, notificationListQuerySchema } from '~/schemas/notifications';
import { listNotifications } from '~/services/notifications.server';

export const contract = defineApi({
  path: '/api/v1/notifications',
  tags: ['notifications'],
  operations: {
    GET: {
      summary: 'The caller’s notifications, newest first (20 a page; `unread=1` for unread only)',
      auth: 'user',
      query: notificationListQuerySchema,
      data: notificationListData,
      errors: ['UNAUTHORIZED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, query }) => listNotifications(session.user.id, query),
});
export const loader = handlers.loader;
export const action = handlers.action;
