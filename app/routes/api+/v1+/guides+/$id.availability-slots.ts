import { apiHandlers } from '~/http/api.server';
import { getSession } from '~/http/session.server';
import { defineApi } from '~/http/contract';
import { warnIfLargeSaveAnswer } from '~/http/debug.server';
import { availabilityQuerySchema, saveSlotsSchema, slotListData } from '~/schemas/availability';
import { assertMaySetSlots, listSlotsFor, setSlots } from '~/services/catalogue/availability.server';
import { guideIdParam } from '~/services/accounts/guide-profile.server';

export const contract = defineApi({
  path: '/api/v1/guides/{id}/availability-slots',
  tags: ['availability'],
  operations: {
    GET: {
      summary: 'A guide’s slots from today to 60 days ahead (Asia/Taipei dates), with whether an order holds each and whether it can be booked now',
      description:
        'Anyone may read a listed guide’s calendar; an unlisted (e.g. suspended) guide’s is 404 GUIDE_NOT_FOUND except to the guide and admins. ' +
        '`bookable` says whether a traveler can book the slot now: open, not held, and bookings for it close 3 hours before it begins (docs/decisions/015-booking-cutoff.md).',
      auth: 'public',
      query: availabilityQuerySchema,
      data: slotListData,
      errors: ['GUIDE_NOT_FOUND'],
    },
    POST: {
      summary: 'Set the days named: the slots sent are open, the other slots of those days closed (the guide or an admin)',
      description:
        '`time_slot` is morning|afternoon|evening or 上午|下午|晚上. An item with `available: 0` names its day without opening the slot. ' +
        'Dates before today or beyond 60 days are 400. A slot that a pending or confirmed order holds cannot be closed (409 TIME_CONFLICT). ' +
        'A `price` is accepted and ignored: a slot costs the guide’s profile price (docs/decisions/010-price-rule.md). ' +
        'A guide must be ID-verified (403 VERIFICATION_REQUIRED) and email-verified (403 EMAIL_NOT_VERIFIED); an admin need not.',
      auth: { roles: ['guide', 'admin'] },
      body: saveSlotsSchema,
      data: slotListData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'VERIFICATION_REQUIRED', 'EMAIL_NOT_VERIFIED', 'GUIDE_NOT_FOUND', 'TIME_CONFLICT'],
    },
  },
});

const handlers = apiHandlers(contract, {
  // Public, but the guide and admins also see an unlisted guide's calendar: the caller, if any, is asked for.
  GET: async ({ request, params, query }) => listSlotsFor((await getSession(request))?.user, guideIdParam(params.id), query),
  POST: {
    // Another guide's calendar is 403 whatever the body.
    authorize: ({ session, params }) => assertMaySetSlots(session.user, guideIdParam(params.id)),
    handle: async ({ params, session, body }) => {
      const saved = await setSlots(session.user, guideIdParam(params.id), {
        days: body.slots.map((s) => s.date),
        open: body.slots.filter((s) => s.available).map((s) => ({ date: s.date, timeSlot: s.time_slot, description: s.description })),
      });
      // The answer is the whole window, so a full calendar crosses SPEC §8's 10,000 bytes: say so in the log.
      warnIfLargeSaveAnswer({ success: true, data: saved }, `POST /api/v1/guides/${saved.guideId}/availability-slots`);
      return saved;
    },
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
