import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { pushPublicKeySchema } from '~/schemas/push';
import { vapidPublicKey } from '~/services/messaging/push.server';

export const contract = defineApi({
  path: '/api/v1/push/public-key',
  tags: ['push'],
  operations: {
    GET: {
      summary: 'The VAPID public key a browser subscribes with (`applicationServerKey`, URL-safe base64)',
      auth: 'public',
      data: pushPublicKeySchema,
      errors: [],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async () => vapidPublicKey(),
});
export const loader = handlers.loader;
export const action = handlers.action;
