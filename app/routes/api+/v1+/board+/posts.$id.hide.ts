import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { boardHideSchema, boardPostData } from '~/schemas/board';
import { boardPostIdParam, hideBoardPost } from '~/services/messaging/board.server';

export const contract = defineApi({
  path: '/api/v1/board/posts/{id}/hide',
  tags: ['board'],
  operations: {
    PATCH: {
      summary: 'An admin hides a post with a reason (audited)',
      auth: { roles: ['admin'] },
      body: boardHideSchema,
      data: boardPostData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  PATCH: async ({ session, params, body }) => ({ post: await hideBoardPost(session.user, boardPostIdParam(params.id), body.reason) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
