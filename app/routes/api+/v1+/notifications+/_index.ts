import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { getLocale } from '~/i18n/i18n.server';
import { notificationListData, notificationListQuerySchema } from '~/schemas/notifications';
import { listNotifications } from '~/services/messaging/notifications.server';

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
  // Worded in the Accept-Language language, like every API message.
  GET: async ({ request, session, query }) => listNotifications(session.user.id, query, await getLocale(request)),
});
export const loader = handlers.loader;
export const action = handlers.action;
