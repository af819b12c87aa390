import { todayInTaipei } from '~/lib/dates';
import { hasSlotBegun, slotStartsAt, type TimeSlot } from '~/lib/time-slots';
import type { MeetingDetails, OrderAction, OrderStatus, OrderUpdate } from '~/schemas/orders';
import { AppError } from '../platform/errors.server';

/**
 * The order state machine (issue 10), the one place that says who may move an order, from where, to where
 * and when. The web forms and PUT /api/v1/orders/{id} both go through `decide`.
 *
 *   pending   → confirmed   guide (accepts), until the slot begins (bookings close 3 hours before it: decision 015)
 *   pending   → cancelled   guide (declines) or traveler (cancels)
 *   confirmed → cancelled   traveler or guide, before the tour day (Asia/Taipei)
 *   pending, confirmed → cancelled   admin, at any time (the admin console; the traveler gets all of it back)
 *   confirmed → (flag)      from the tour day on, each side marks completion; both flags → completed
 *   cancelled, completed → refunded   admin
 *
 * A party who is not allowed that action at all gets 403 FORBIDDEN; an allowed party asking at the wrong state or
 * time gets 409 INVALID_TRANSITION. `now` is injectable so tests can move past the tour day.
 */
export interface OrderFacts {
  status: OrderStatus;
  travelerId: number;
  guideId: number;
  date: string;
  timeSlot: TimeSlot;
  travelerCompleted: boolean;
  guideCompleted: boolean;
}

export interface Actor {
  id: number;
  type: 'traveler' | 'guide' | 'admin';
}

export type Party = 'traveler' | 'guide' | 'admin';

export interface Decision {
  action: OrderAction;
  party: Party;
  from: OrderStatus;
  to: OrderStatus;
  patch: Partial<Pick<OrderFacts, 'status' | 'travelerCompleted' | 'guideCompleted'>>;
}

interface Rule {
  parties: readonly Party[];
  from: readonly OrderStatus[];
  /** Extra condition on the time and the flags; false → INVALID_TRANSITION. `today` is the Taiwan date of `now`. */
  when?: (order: OrderFacts, party: Party, today: string, now: Date) => boolean;
  to: (order: OrderFacts, party: Party) => Decision['patch'];
}

export const ORDER_RULES: Record<OrderAction, Rule> = {
  confirm: {
    parties: ['guide'],
    from: ['pending'],
    // A tour that has begun can no longer be accepted; the guide may still decline, the traveler cancel.
    when: (order, _party, _today, now) => !hasSlotBegun(order.date, order.timeSlot, now),
    to: () => ({ status: 'confirmed' }),
  },
  decline: { parties: ['guide'], from: ['pending'], to: () => ({ status: 'cancelled' }) },
  cancel: {
    parties: ['traveler', 'guide', 'admin'],
    from: ['pending', 'confirmed'],
    when: (order, party, today) => party === 'admin' || (order.status === 'pending' ? party === 'traveler' : today < order.date),
    to: () => ({ status: 'cancelled' }),
  },
  complete: {
    parties: ['traveler', 'guide'],
    from: ['confirmed'],
    when: (order, party, today) =>
      today >= order.date && !(party === 'traveler' ? order.travelerCompleted : order.guideCompleted),
    to: (order, party) => {
      const travelerCompleted = party === 'traveler' || order.travelerCompleted;
      const guideCompleted = party === 'guide' || order.guideCompleted;
      return {
        travelerCompleted,
        guideCompleted,
        ...(travelerCompleted && guideCompleted ? { status: 'completed' as const } : {}),
      };
    },
  },
  refund: { parties: ['admin'], from: ['cancelled', 'completed'], to: () => ({ status: 'refunded' }) },
};

/** The viewer's part in this order, if any (an admin is "admin" unless they are a party themselves). */
export function partyOf(order: Pick<OrderFacts, 'travelerId' | 'guideId'>, actor: Actor): Party | undefined {
  if (actor.id === order.travelerId) return 'traveler';
  if (actor.id === order.guideId) return 'guide';
  if (actor.type === 'admin') return 'admin';
  return undefined;
}

/**
 * A change as it is asked for: the order page names an action (its buttons); PUT /api/v1/orders/{id} names the
 * status it wants or one completion flag.
 */
export type OrderChange = ({ action: OrderAction } & Partial<MeetingDetails>) | OrderUpdate;

/**
 * The action a requested change means for this viewer and this order: "cancelled" from the guide of a pending
 * order is a decline, from anyone else a cancel; a completion flag is the completion of its own side only
 * (another's flag: FORBIDDEN). `decide` then says whether the action is allowed now.
 */
export function actionFor(order: Pick<OrderFacts, 'status' | 'travelerId' | 'guideId'>, actor: Actor, change: OrderChange): OrderAction {
  if ('action' in change) return change.action;
  const party = partyOf(order, actor);
  if (change.travelerCompleted || change.guideCompleted) {
    if (party !== (change.travelerCompleted ? 'traveler' : 'guide')) throw new AppError('FORBIDDEN');
    return 'complete';
  }
  switch (change.status) {
    case 'confirmed':
      return 'confirm';
    case 'cancelled':
      return party === 'guide' && order.status === 'pending' ? 'decline' : 'cancel';
    case 'completed':
      return 'complete';
    default:
      return 'refund';
  }
}

/** Checks one action and says what it changes; throws FORBIDDEN (wrong party) or INVALID_TRANSITION (wrong state or day). */
export function decide(order: OrderFacts, actor: Actor, action: OrderAction, now: Date = new Date()): Decision {
  const rule = ORDER_RULES[action];
  const party = partyOf(order, actor);
  // An admin who is also a party acts as that party; the refund is an admin's alone.
  const acting: Party | undefined = action === 'refund' && actor.type === 'admin' ? 'admin' : party;
  if (!acting || !rule.parties.includes(acting)) throw new AppError('FORBIDDEN');
  if (!rule.from.includes(order.status)) throw new AppError('INVALID_TRANSITION');
  if (rule.when && !rule.when(order, acting, todayInTaipei(now), now)) throw new AppError('INVALID_TRANSITION');
  const patch = rule.to(order, acting);
  return { action, party: acting, from: order.status, to: patch.status ?? order.status, patch };
}

/** The actions this viewer may take now (the order page's buttons, the API's `actions`). */
export function availableActions(order: OrderFacts, actor: Actor, now: Date = new Date()): OrderAction[] {
  return (Object.keys(ORDER_RULES) as OrderAction[]).filter((action) => {
    try {
      decide(order, actor, action, now);
      return true;
    } catch {
      return false;
    }
  });
}

/** The booking terms' grace period: a traveler who cancels within this many hours of booking… */
export const CANCEL_GRACE_HOURS = 24;
/** …gets all of it back while the tour is still at least this many hours away (closer, the usual rule applies). */
export const CANCEL_GRACE_MIN_HOURS_AHEAD = 48;

/**
 * What the traveler gets back when an order is cancelled now (the booking terms, "Cancellations": more than 72 hours
 * before the start all of it, from 72 to 24 hours half, later nothing; when the guide cancels or declines, all of
 * it). The grace period: cancelled by the traveler within 24 hours of booking with the tour at least 48 hours away,
 * all of it (`grace`: the dialog says why). The cancel dialog shows it before asking; the payment lane refunds it.
 */
export function refundOnCancel(
  order: Pick<OrderFacts, 'date' | 'timeSlot'> & { totalPrice: number; createdAt: Date | string },
  party: Party,
  now: Date,
): { share: 0 | 50 | 100; amount: number; grace?: true } {
  const hoursLeft = (slotStartsAt(order.date, order.timeSlot).getTime() - now.getTime()) / 3_600_000;
  const hoursSinceBooked = (now.getTime() - new Date(order.createdAt).getTime()) / 3_600_000;
  const usual = party !== 'traveler' || hoursLeft > 72 ? 100 : hoursLeft >= 24 ? 50 : 0;
  const grace = usual < 100 && hoursSinceBooked <= CANCEL_GRACE_HOURS && hoursLeft >= CANCEL_GRACE_MIN_HOURS_AHEAD;
  const share = grace ? 100 : usual;
  return { share, amount: Math.floor((order.totalPrice * share) / 100), ...(grace ? { grace: true as const } : {}) };
}
