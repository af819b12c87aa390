import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { getSession } from '~/http/session.server';
import { boardListData, boardListQuerySchema, boardPostData, boardPostSchema } from '~/schemas/board';
import { createBoardPost, listBoardPosts } from '~/services/messaging/board.server';

export const contract = defineApi({
  path: '/api/v1/board/posts',
  tags: ['board'],
  operations: {
    GET: {
      summary: 'Message board posts, newest first (10 a page), by city and language; contact details masked',
      auth: 'public',
      query: boardListQuerySchema,
      data: boardListData,
      errors: [],
    },
    POST: {
      summary: 'A traveler posts a trip request or question (a verified e-mail is needed)',
      auth: 'user',
      body: boardPostSchema,
      status: 201,
      data: boardPostData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'EMAIL_NOT_VERIFIED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  // Public, but an admin's list also holds hidden posts.
  GET: async ({ request, query }) => listBoardPosts((await getSession(request))?.user, query),
  POST: async ({ session, body }) => ({ post: await createBoardPost(session.user, body) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
