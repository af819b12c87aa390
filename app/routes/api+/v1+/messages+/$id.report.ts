import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { messageReportData, messageReportSchema } from '~/schemas/chat';
import { assertMessageReadable, messageIdParam, reportMessage } from '~/services/chats.server';

export const contract = defineApi({
  path: '/api/v1/messages/{id}/report',
  tags: ['chat'],
  operations: {
    POST: {
      summary: 'A participant reports a message the other side sent (once per reporter)',
      auth: 'user',
      body: messageReportSchema,
      data: messageReportData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  // Access first: a stranger gets 404 whatever the body.
  POST: {
    authorize: async ({ session, params }) => {
      const messageId = messageIdParam(params.id);
      await assertMessageReadable(session.user, messageId);
      return messageId;
    },
    handle: async ({ session, body, target: messageId }) => reportMessage(session.user, messageId, body.reason),
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
