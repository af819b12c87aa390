import { todayInTaipei } from '~/lib/dates';
import type { OrderAction, OrderStatus } from '~/schemas/orders';
import { AppError } from './errors.server';

/**
 * The order state machine (issue 10), the one place that says who may move an order, from where, to where
 * and when. The web forms and PUT /api/v1/orders/{id} both go through `decide`.
 *
 *   pending   → confirmed   guide (accepts)
 *   pending   → cancelled   guide (declines) or traveler (cancels)
 *   confirmed → cancelled   traveler or guide, before the tour day (Asia/Taipei)
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
  /** Extra condition on the day and the flags; false → INVALID_TRANSITION. */
  when?: (order: OrderFacts, party: Party, today: string) => boolean;
  to: (order: OrderFacts, party: Party) => Decision['patch'];
}

export const ORDER_RULES: Record<OrderAction, Rule> = {
  confirm: { parties: ['guide'], from: ['pending'], to: () => ({ status: 'confirmed' }) },
  decline: { parties: ['guide'], from: ['pending'], to: () => ({ status: 'cancelled' }) },
  cancel: {
    parties: ['traveler', 'guide'],
    from: ['pending', 'confirmed'],
    when: (order, party, today) => (order.status === 'pending' ? party === 'traveler' : today < order.date),
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

/** Checks one action and says what it changes; throws FORBIDDEN (wrong party) or INVALID_TRANSITION (wrong state or day). */
export function decide(order: OrderFacts, actor: Actor, action: OrderAction, now: Date = new Date()): Decision {
  const rule = ORDER_RULES[action];
  const party = partyOf(order, actor);
  // An admin who is also a party acts as that party; the refund is an admin's alone.
  const acting: Party | undefined = action === 'refund' && actor.type === 'admin' ? 'admin' : party;
  if (!acting || !rule.parties.includes(acting)) throw new AppError('FORBIDDEN');
  if (!rule.from.includes(order.status)) throw new AppError('INVALID_TRANSITION');
  if (rule.when && !rule.when(order, acting, todayInTaipei(now))) throw new AppError('INVALID_TRANSITION');
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
