import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { chatSummarySchema } from '~/schemas/chat';
import { chatIdParam, getChat } from '~/services/messaging/chats.server';

const party = z.object({ id: z.int(), name: z.string(), avatar: z.string().nullable() });

export const contract = defineApi({
  path: '/api/v1/chats/{id}',
  tags: ['chat'],
  operations: {
    GET: {
      summary: 'One conversation (its two participants, or an admin; anyone else 404)',
      auth: 'user',
      data: z.object({ chat: chatSummarySchema, traveler: party, guide: party }),
      errors: ['UNAUTHORIZED', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, params }) => getChat(session.user, chatIdParam(params.id)),
});
export const loader = handlers.loader;
export const action = handlers.action;
