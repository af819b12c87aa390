import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { boardReplyIdParam, deleteBoardReply } from '~/services/messaging/board.server';

export const contract = defineApi({
  path: '/api/v1/board/replies/{id}',
  tags: ['board'],
  operations: {
    DELETE: { summary: 'The author (or an admin, audited) deletes a reply', auth: 'user', data: z.object({ id: z.int() }), errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'] },
  },
});

const handlers = apiHandlers(contract, {
  DELETE: async ({ session, params }) => deleteBoardReply(session.user, boardReplyIdParam(params.id)),
});
export const loader = handlers.loader;
export const action = handlers.action;
