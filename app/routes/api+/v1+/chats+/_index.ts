import { limitLog } from '~/http/request-context.server';
import { apiHandlers, ok } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { chatData, chatListData, chatOpenSchema } from '~/schemas/chat';
import { listChats, startChat, startChatFromBoardPost, startChatFromOrder } from '~/services/messaging/chats.server';

export const contract = defineApi({
  path: '/api/v1/chats',
  tags: ['chat'],
  operations: {
    GET: {
      summary: 'The caller’s conversations, newest activity first, with unread counts',
      auth: 'user',
      data: chatListData,
      errors: ['UNAUTHORIZED'],
    },
    POST: {
      summary: 'A traveler asks a guide, a guide writes to a board post’s author, or either party of an order writes to the other: opens (or reuses) the one conversation of the pair and sends the first message',
      description:
        'Two forms. A traveler sends `{guideId, orderId?, message}`: `orderId` links one of the caller’s orders with that guide. A guide sends `{boardPostId, message}`: the conversation is with the traveler who wrote that (visible) board post; or either party of an order sends `{orderId, message}` alone: the conversation is with the order’s other party, named by the order (404 for an order the caller is not a party of). A guide cannot reach a traveler any other way (403 without a post or an order, 404 for a missing or hidden post). One conversation per traveler and guide: a second start answers the same conversation with 200 (201 when it is new). A verified e-mail is needed; 5 new conversations an hour per opener.',
      auth: 'user',
      body: chatOpenSchema,
      status: 201,
      alsoStatus: 200,
      data: chatData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'EMAIL_NOT_VERIFIED', 'GUIDE_NOT_FOUND', 'NOT_FOUND', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session }) => listChats(session.user),
  POST: async ({ request, session, body }) => {
    const { guideId, boardPostId, orderId, message: text, clientId } = body;
    const { chat, message, created } =
      boardPostId !== undefined
        ? await startChatFromBoardPost(session.user, { boardPostId, message: text, clientId }, undefined, limitLog(request))
        : guideId === undefined
          ? await startChatFromOrder(session.user, { orderId: orderId!, message: text, clientId }, undefined, limitLog(request))
          : await startChat(session.user, { guideId: guideId!, orderId, message: text, clientId }, undefined, limitLog(request));
    return ok({ chat, message }, { status: created ? 201 : 200 });
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
