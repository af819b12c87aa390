import { z } from 'zod';

/** Web push (issue 23, docs/decisions/029): what a browser's PushSubscription.toJSON() holds, and our answers. */
const base64url = (max: number) =>
  z.string({ error: 'validation.required' }).min(1, { error: 'validation.required' }).max(max, { error: 'validation.invalid' }).regex(/^[A-Za-z0-9_-]+=*$/, { error: 'validation.invalid' });

/** The endpoint is checked for address and scheme by the service (server-side request forgery, decision 029). */
const endpoint = z.string({ error: 'validation.required' }).min(1, { error: 'validation.required' }).max(2048, { error: 'validation.invalid' });

export const pushSubscribeSchema = z.object({
  endpoint,
  // expirationTime is sent by browsers (usually null) and not kept.
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url(200), auth: base64url(100) }, { error: 'validation.required' }),
});
export type PushSubscribeInput = z.output<typeof pushSubscribeSchema>;

export const pushUnsubscribeSchema = z.object({ endpoint });

export const pushSubscriptionSchema = z.object({
  id: z.int(),
  endpoint: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type PushSubscriptionView = z.output<typeof pushSubscriptionSchema>;

/** One of the caller's browsers, and whether the caller's own session subscribed it (then it is this browser's). */
export const pushSubscriptionListedSchema = pushSubscriptionSchema.extend({ thisSession: z.boolean() });
export type PushSubscriptionListed = z.output<typeof pushSubscriptionListedSchema>;
export const pushSubscriptionListSchema = z.object({ subscriptions: z.array(pushSubscriptionListedSchema) });

export const pushPublicKeySchema = z.object({ publicKey: z.string() });

export const pushUnsubscribedSchema = z.object({ deleted: z.boolean() });

/** What the service worker receives (encrypted) and shows: words in the recipient's language, and where to go. */
export interface PushMessage {
  title: string;
  body: string;
  /** A path of this site, opened by a click on the notification. */
  url: string;
}
