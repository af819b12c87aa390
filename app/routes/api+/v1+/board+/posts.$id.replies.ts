import { limitLog } from '~/http/request-context.server';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { getSession } from '~/http/session.server';
import { boardRepliesData, boardReplyData, boardReplySchema } from '~/schemas/board';
import { boardPostIdParam, createBoardReply, listBoardReplies } from '~/services/messaging/board.server';

export const contract = defineApi({
  path: '/api/v1/board/posts/{id}/replies',
  tags: ['board'],
  operations: {
    GET: {
      summary: "A post's public replies, oldest first; contact details masked",
      auth: 'public',
      data: boardRepliesData,
      errors: ['NOT_FOUND'],
    },
    POST: {
      summary: "A guide, or the post's author, replies publicly (a verified e-mail is needed; 10 a minute)",
      auth: 'user',
      body: boardReplySchema,
      status: 201,
      data: boardReplyData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'EMAIL_NOT_VERIFIED', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  // Public, but an admin also sees hidden replies.
  GET: async ({ request, params }) => ({ replies: await listBoardReplies((await getSession(request))?.user, boardPostIdParam(params.id)) }),
  POST: async ({ request, session, params, body }) => ({ reply: await createBoardReply(session.user, boardPostIdParam(params.id), body, undefined, limitLog(request)) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
