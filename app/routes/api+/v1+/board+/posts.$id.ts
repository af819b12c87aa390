import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { boardPostData, boardPostSchema } from '~/schemas/board';
import { boardPostIdParam, deleteBoardPost, editableBoardPost, updateBoardPost } from '~/services/messaging/board.server';

export const contract = defineApi({
  path: '/api/v1/board/posts/{id}',
  tags: ['board'],
  operations: {
    PUT: {
      summary: 'The author edits their post (city, languages, dates, text)',
      description:
        'Only the author: anyone else gets 403 whatever the body (admins hide posts, they do not edit them); a missing or hidden post is 404. A field left out keeps its value. The post comes back masked as on the board.',
      auth: 'user',
      body: boardPostSchema,
      data: boardPostData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'EMAIL_NOT_VERIFIED'],
    },
    DELETE: { summary: 'The author (or an admin) deletes a post', auth: 'user', data: z.object({ id: z.int() }), errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'] },
  },
});

const handlers = apiHandlers(contract, {
  // Access first: only the author reaches the body's rules.
  PUT: {
    authorize: async ({ session, params }) => {
      const id = boardPostIdParam(params.id);
      return { id, current: await editableBoardPost(session.user, id) };
    },
    current: (target: { current: Record<string, unknown> }) => target.current,
    handle: async ({ session, body, target }) => ({ post: await updateBoardPost(session.user, target.id, body) }),
  },
  DELETE: async ({ session, params }) => deleteBoardPost(session.user, boardPostIdParam(params.id)),
});
export const loader = handlers.loader;
export const action = handlers.action;
