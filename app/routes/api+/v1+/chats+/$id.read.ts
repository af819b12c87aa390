import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { chatReadData } from '~/schemas/chat';
import { chatIdParam, markChatRead } from '~/services/messaging/chats.server';

export const contract = defineApi({
  path: '/api/v1/chats/{id}/read',
  tags: ['chat'],
  operations: {
    PUT: {
      summary: 'Mark the messages sent to the caller in this conversation read (the sender gets message_read)',
      auth: 'user',
      data: chatReadData,
      errors: ['UNAUTHORIZED', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  PUT: async ({ session, params }) => markChatRead(session.user, chatIdParam(params.id)),
});
export const loader = handlers.loader;
export const action = handlers.action;
