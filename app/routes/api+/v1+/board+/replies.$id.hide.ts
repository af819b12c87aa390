import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { boardHideSchema, boardReplyData } from '~/schemas/board';
import { boardReplyIdParam, hideBoardReply } from '~/services/messaging/board.server';

export const contract = defineApi({
  path: '/api/v1/board/replies/{id}/hide',
  tags: ['board'],
  operations: {
    PATCH: {
      summary: 'An admin hides a reply with a reason (audited)',
      auth: { roles: ['admin'] },
      body: boardHideSchema,
      data: boardReplyData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  PATCH: async ({ session, params, body }) => ({ reply: await hideBoardReply(session.user, boardReplyIdParam(params.id), body.reason) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
