import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { messageReportData, messageReportSchema } from '~/schemas/chat';
import { assertMessageReadable, messageIdParam, reportMessage } from '~/services/messaging/chats.server';

export const contract = defineApi({
  path: '/api/v1/messages/{id}/report',
  tags: ['chat'],
  operations: {
    POST: {
      summary: 'A participant reports a message the other side sent, with a reason (once per message and reporter)',
      description:
        'Body `{reasonCode, reason?}`: `reasonCode` is spam, harassment, offPlatform (contact or payment outside the platform) or other; `reason` is the reporter’s own words, required with other (500 characters at most). A second report of the same message by the same person changes nothing and answers the same. A body without `reasonCode` (clients before it existed) is kept with its `reason` alone.',
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
    handle: async ({ session, body, target: messageId }) => reportMessage(session.user, messageId, body),
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
