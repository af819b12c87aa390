import { limitLog } from '~/http/request-context.server';
import { apiHandlers, ok } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { pushSubscribeSchema, pushSubscriptionListSchema, pushSubscriptionSchema, pushUnsubscribedSchema, pushUnsubscribeSchema } from '~/schemas/push';
import { listSubscriptions, subscribe, unsubscribe } from '~/services/messaging/push.server';
import { z } from 'zod';

export const contract = defineApi({
  path: '/api/v1/push/subscriptions',
  tags: ['push'],
  operations: {
    GET: {
      summary: 'The caller’s browsers that receive web pushes, newest first',
      description: '`thisSession` is true for a subscription the caller’s own session made (this browser’s, when the caller is a browser).',
      auth: 'user',
      cache: 'no-store',
      data: pushSubscriptionListSchema,
      errors: ['UNAUTHORIZED'],
    },
    POST: {
      summary: 'Receive web pushes in this browser (its PushSubscription as `toJSON()` gives it)',
      description:
        'One subscription per browser: the same endpoint again replaces its keys and belongs to the caller and the caller’s session (201 new, 200 replaced). ' +
        'It lasts as long as that session: logging out, a password reset, a block or archive, or the session’s expiry deletes it. ' +
        'At most 10 per account (a further one deletes the oldest); 20 calls per account and minute, then 429 RATE_LIMIT_EXCEEDED with Retry-After. ' +
        'The endpoint must be an https URL of a public host (no loopback, private or link-local address): 400 VALIDATION_ERROR on `endpoint` otherwise. ' +
        'Pushes carry `{title, body, url}` in the account’s language, encrypted to `keys` (aes128gcm) and signed with the key of GET /api/v1/push/public-key.',
      auth: 'user',
      body: pushSubscribeSchema,
      status: 201,
      alsoStatus: 200,
      data: z.object({ subscription: pushSubscriptionSchema }),
      errors: ['UNAUTHORIZED', 'RATE_LIMIT_EXCEEDED'],
    },
    DELETE: {
      summary: 'Stop web pushes to this browser (by its endpoint)',
      description: 'Deletes the caller’s subscription with this endpoint; `deleted` is false when the caller had none (another account’s is left alone).',
      auth: 'user',
      body: pushUnsubscribeSchema,
      data: pushUnsubscribedSchema,
      errors: ['UNAUTHORIZED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session }) => ({ subscriptions: await listSubscriptions(session) }),
  POST: async ({ session, body, request }) => {
    const { subscription, created } = await subscribe(session, body, request.headers.get('user-agent'), undefined, limitLog(request));
    return ok({ subscription }, { status: created ? 201 : 200 });
  },
  DELETE: async ({ session, body }) => unsubscribe(session.user, body.endpoint),
});
export const loader = handlers.loader;
export const action = handlers.action;
