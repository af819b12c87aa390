import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { readAllSchema } from '~/schemas/notifications';
import { AppError } from '~/services/platform/errors.server';
import { markAllRead } from '~/services/messaging/notifications.server';

export const contract = defineApi({
  path: '/api/v1/notifications/read-all',
  tags: ['notifications'],
  operations: {
    PUT: {
      summary: 'Mark all the caller’s notifications read (`userId`, when sent, must be the caller’s)',
      auth: 'user',
      body: readAllSchema,
      data: z.object({ updated: z.int().min(0), count: z.int().min(0) }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  PUT: async ({ session, body }) => {
    if (body.userId !== undefined && body.userId !== session.user.id) throw new AppError('FORBIDDEN');
    return markAllRead(session.user.id);
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
