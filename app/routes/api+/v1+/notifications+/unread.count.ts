import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { unreadCountData } from '~/schemas/notifications';
import { countUnread } from '~/services/messaging/notifications.server';

export const contract = defineApi({
  path: '/api/v1/notifications/unread/count',
  tags: ['notifications'],
  operations: {
    GET: { summary: 'How many of the caller’s notifications are unread (`data.count`)', auth: 'user', data: unreadCountData, errors: ['UNAUTHORIZED'] },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session }) => ({ count: await countUnread(session.user.id) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
