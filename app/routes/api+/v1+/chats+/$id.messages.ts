import { limitLog } from '~/http/request-context.server';
import { apiHandlers, ok } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { messageData, messageListData, messageListQuerySchema, messageSendSchema } from '~/schemas/chat';
import { assertChatReadable, chatIdParam, listMessages, sendMessage } from '~/services/messaging/chats.server';

export const contract = defineApi({
  path: '/api/v1/chats/{id}/messages',
  tags: ['chat'],
  operations: {
    GET: {
      summary: 'Messages of a conversation, oldest first',
      description:
        '`after`: the messages after this id (a client that reconnects asks for those after the last one it has). `before`: the older page. Neither: the newest page. `hasMore` says whether more lie in that direction.',
      auth: 'user',
      query: messageListQuerySchema,
      data: messageListData,
      errors: ['UNAUTHORIZED', 'NOT_FOUND'],
    },
    POST: {
      summary: 'Send a message (stored, then emitted as new_message to both participants)',
      description:
        'The same `clientId` again answers the stored message with 200 and stores nothing (201 when new). Up to 2,000 characters; 20 a minute; a verified e-mail is needed; a blocked conversation answers 403.',
      auth: 'user',
      body: messageSendSchema,
      status: 201,
      alsoStatus: 200,
      data: messageData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'EMAIL_NOT_VERIFIED', 'NOT_FOUND', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, params, query }) => listMessages(session.user, chatIdParam(params.id), query),
  // Access first: a stranger gets 404 whatever the body.
  POST: {
    authorize: async ({ session, params }) => {
      const chatId = chatIdParam(params.id);
      await assertChatReadable(session.user, chatId);
      return chatId;
    },
    handle: async ({ request, session, body, target: chatId }) => {
      const { message, created } = await sendMessage(session.user, chatId, body, undefined, limitLog(request));
      return ok({ message }, { status: created ? 201 : 200 });
    },
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
