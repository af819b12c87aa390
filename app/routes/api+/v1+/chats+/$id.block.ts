import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { chatBlockData, chatBlockSchema } from '~/schemas/chat';
import { assertChatReadable, chatIdParam, setChatBlocked } from '~/services/messaging/chats.server';

export const contract = defineApi({
  path: '/api/v1/chats/{id}/block',
  tags: ['chat'],
  operations: {
    POST: {
      summary: 'A participant blocks the conversation (the other side can no longer send); `{"blocked": false}` lifts it',
      auth: 'user',
      body: chatBlockSchema,
      data: chatBlockData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  // Access first: a stranger gets 404 whatever the body.
  POST: {
    authorize: async ({ session, params }) => {
      const chatId = chatIdParam(params.id);
      await assertChatReadable(session.user, chatId);
      return chatId;
    },
    handle: async ({ session, body, target: chatId }) => setChatBlocked(session.user, chatId, body.blocked),
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
