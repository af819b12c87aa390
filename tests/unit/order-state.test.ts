import { describe, expect, it } from 'vitest';
import type { OrderAction, OrderStatus } from '~/schemas/orders';
import { AppError } from '~/services/platform/errors.server';
import { actionFor, availableActions, decide, refundOnCancel, type Actor, type OrderFacts } from '~/services/booking/order-state.server';

/**
 * The order state machine itself (app/services/booking/order-state.server.ts), without HTTP or a database: which party may
 * take which action from which status, what the tour day and the slot's start change, what a requested change
 * (a status or a completion flag) means, and what a cancel gives back.
 */
const TRAVELER: Actor = { id: 1, type: 'traveler' };
const GUIDE: Actor = { id: 2, type: 'guide' };
const ADMIN: Actor = { id: 3, type: 'admin' };
const STRANGER: Actor = { id: 4, type: 'traveler' };

// The tour is on 2026-12-10, morning (09:00 Taiwan = 01:00 UTC).
const TOUR_DAY = '2026-12-10';
const BEFORE = new Date('2026-12-05T04:00:00Z'); // five days ahead
const TOUR_MORNING = new Date('2026-12-10T02:00:00Z'); // 10:00 Taiwan on the day, the slot has begun
const AFTER = new Date('2026-12-12T04:00:00Z');

const order = (status: OrderStatus, flags: Partial<Pick<OrderFacts, 'travelerCompleted' | 'guideCompleted'>> = {}): OrderFacts => ({
  status,
  travelerId: TRAVELER.id,
  guideId: GUIDE.id,
  date: TOUR_DAY,
  timeSlot: 'morning',
  travelerCompleted: false,
  guideCompleted: false,
  ...flags,
});

function refusal(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe('the order state machine: decide and availableActions', () => {
  const cases: { status: OrderStatus; now: Date; traveler: OrderAction[]; guide: OrderAction[]; admin: OrderAction[] }[] = [
    { status: 'pending', now: BEFORE, traveler: ['cancel'], guide: ['confirm', 'decline'], admin: ['cancel'] },
    // Once the slot has begun the guide can no longer accept, but may still decline.
    { status: 'pending', now: TOUR_MORNING, traveler: ['cancel'], guide: ['decline'], admin: ['cancel'] },
    { status: 'confirmed', now: BEFORE, traveler: ['cancel'], guide: ['cancel'], admin: ['cancel'] },
    // From the tour day on: no cancelling, each side marks completion.
    { status: 'confirmed', now: TOUR_MORNING, traveler: ['complete'], guide: ['complete'], admin: ['cancel'] },
    { status: 'confirmed', now: AFTER, traveler: ['complete'], guide: ['complete'], admin: ['cancel'] },
    { status: 'cancelled', now: BEFORE, traveler: [], guide: [], admin: ['refund'] },
    { status: 'completed', now: AFTER, traveler: [], guide: [], admin: ['refund'] },
    { status: 'refunded', now: AFTER, traveler: [], guide: [], admin: [] },
  ];
  for (const c of cases) {
    it(`${c.status} at ${c.now.toISOString()}: traveler ${c.traveler}, guide ${c.guide}, admin ${c.admin}`, () => {
      expect(availableActions(order(c.status), TRAVELER, c.now)).toEqual(c.traveler);
      expect(availableActions(order(c.status), GUIDE, c.now)).toEqual(c.guide);
      expect(availableActions(order(c.status), ADMIN, c.now)).toEqual(c.admin);
      expect(availableActions(order(c.status), STRANGER, c.now)).toEqual([]);
    });
  }

  it('refuses the wrong party with FORBIDDEN and the wrong state or day with INVALID_TRANSITION', () => {
    expect(refusal(() => decide(order('pending'), TRAVELER, 'confirm', BEFORE))).toBe('FORBIDDEN');
    expect(refusal(() => decide(order('pending'), STRANGER, 'cancel', BEFORE))).toBe('FORBIDDEN');
    expect(refusal(() => decide(order('cancelled'), GUIDE, 'refund', BEFORE))).toBe('FORBIDDEN');
    expect(refusal(() => decide(order('confirmed'), GUIDE, 'confirm', BEFORE))).toBe('INVALID_TRANSITION');
    expect(refusal(() => decide(order('pending'), GUIDE, 'confirm', TOUR_MORNING))).toBe('INVALID_TRANSITION');
    expect(refusal(() => decide(order('confirmed'), TRAVELER, 'cancel', TOUR_MORNING))).toBe('INVALID_TRANSITION');
    expect(refusal(() => decide(order('confirmed'), TRAVELER, 'complete', BEFORE))).toBe('INVALID_TRANSITION');
    expect(refusal(() => decide(order('cancelled'), TRAVELER, 'cancel', BEFORE))).toBe('INVALID_TRANSITION');
    expect(refusal(() => decide(order('refunded'), ADMIN, 'refund', AFTER))).toBe('INVALID_TRANSITION');
  });

  it('says what each allowed action changes', () => {
    expect(decide(order('pending'), GUIDE, 'confirm', BEFORE)).toEqual({ action: 'confirm', party: 'guide', from: 'pending', to: 'confirmed', patch: { status: 'confirmed' } });
    expect(decide(order('pending'), GUIDE, 'decline', BEFORE)).toMatchObject({ party: 'guide', to: 'cancelled' });
    expect(decide(order('confirmed'), TRAVELER, 'cancel', BEFORE)).toMatchObject({ party: 'traveler', from: 'confirmed', to: 'cancelled' });
    expect(decide(order('completed'), ADMIN, 'refund', AFTER)).toMatchObject({ party: 'admin', to: 'refunded' });
  });

  it('completes an order with the second flag only; a side cannot mark itself twice', () => {
    const first = decide(order('confirmed'), TRAVELER, 'complete', AFTER);
    expect(first).toMatchObject({ to: 'confirmed', patch: { travelerCompleted: true, guideCompleted: false } });
    expect(refusal(() => decide(order('confirmed', { travelerCompleted: true }), TRAVELER, 'complete', AFTER))).toBe('INVALID_TRANSITION');
    const second = decide(order('confirmed', { travelerCompleted: true }), GUIDE, 'complete', AFTER);
    expect(second).toMatchObject({ to: 'completed', patch: { travelerCompleted: true, guideCompleted: true, status: 'completed' } });
  });

  it('lets an admin who is a party act as that party, and refund as admin', () => {
    const adminGuide: Actor = { id: GUIDE.id, type: 'admin' };
    expect(availableActions(order('pending'), adminGuide, BEFORE)).toEqual(['confirm', 'decline']);
    expect(decide(order('cancelled'), adminGuide, 'refund', BEFORE)).toMatchObject({ party: 'admin' });
  });
});

describe('actionFor: a requested change read as an action', () => {
  it('passes the page’s action through', () => {
    expect(actionFor(order('pending'), GUIDE, { action: 'decline' })).toBe('decline');
  });

  it('reads "cancelled" from the guide of a pending order as a decline, otherwise as a cancel', () => {
    expect(actionFor(order('pending'), GUIDE, { status: 'cancelled' })).toBe('decline');
    expect(actionFor(order('confirmed'), GUIDE, { status: 'cancelled' })).toBe('cancel');
    expect(actionFor(order('pending'), TRAVELER, { status: 'cancelled' })).toBe('cancel');
    expect(actionFor(order('pending'), ADMIN, { status: 'cancelled' })).toBe('cancel');
  });

  it('maps the other statuses and the completion flags', () => {
    expect(actionFor(order('pending'), GUIDE, { status: 'confirmed' })).toBe('confirm');
    expect(actionFor(order('confirmed'), GUIDE, { status: 'completed' })).toBe('complete');
    expect(actionFor(order('completed'), ADMIN, { status: 'refunded' })).toBe('refund');
    expect(actionFor(order('confirmed'), TRAVELER, { travelerCompleted: true })).toBe('complete');
    expect(actionFor(order('confirmed'), GUIDE, { guideCompleted: true })).toBe('complete');
  });

  it('refuses another side’s completion flag with FORBIDDEN', () => {
    expect(refusal(() => actionFor(order('confirmed'), GUIDE, { travelerCompleted: true }))).toBe('FORBIDDEN');
    expect(refusal(() => actionFor(order('confirmed'), TRAVELER, { guideCompleted: true }))).toBe('FORBIDDEN');
    expect(refusal(() => actionFor(order('confirmed'), ADMIN, { guideCompleted: true }))).toBe('FORBIDDEN');
  });
});

describe('refundOnCancel', () => {
  // The tour starts 2026-12-10 09:00 in Taipei (01:00 UTC); booked well before, unless a test says otherwise.
  const priced = { date: TOUR_DAY, timeSlot: 'morning' as const, totalPrice: 3001, createdAt: new Date('2026-12-01T00:00:00Z') };
  it('gives the traveler all of it more than 72 hours ahead, half from 72 to 24 hours, then nothing', () => {
    expect(refundOnCancel(priced, 'traveler', BEFORE)).toEqual({ share: 100, amount: 3001 });
    expect(refundOnCancel(priced, 'traveler', new Date('2026-12-08T01:00:00Z'))).toEqual({ share: 50, amount: 1500 });
    expect(refundOnCancel(priced, 'traveler', new Date('2026-12-09T02:00:00Z'))).toEqual({ share: 0, amount: 0 });
  });
  it('gives all of it back within 24 hours of booking while the tour is at least 48 hours away (the grace period)', () => {
    const bookedAt = (iso: string) => ({ ...priced, createdAt: new Date(iso) });
    // Booked 12 hours ago, 49 hours ahead: all of it, and says why.
    expect(refundOnCancel(bookedAt('2026-12-07T12:00:00Z'), 'traveler', new Date('2026-12-08T00:00:00Z'))).toEqual({ share: 100, amount: 3001, grace: true });
    // Exactly 24 hours after booking, exactly 48 hours ahead: still inside.
    expect(refundOnCancel(bookedAt('2026-12-07T01:00:00Z'), 'traveler', new Date('2026-12-08T01:00:00Z'))).toEqual({ share: 100, amount: 3001, grace: true });
    // Booked an hour ago but only 45 hours ahead: the usual rule (half).
    expect(refundOnCancel(bookedAt('2026-12-08T03:00:00Z'), 'traveler', new Date('2026-12-08T04:00:00Z'))).toEqual({ share: 50, amount: 1500 });
    // 36 hours after booking, 61 hours ahead: the grace is over (half).
    expect(refundOnCancel(bookedAt('2026-12-06T00:00:00Z'), 'traveler', new Date('2026-12-07T12:00:00Z'))).toEqual({ share: 50, amount: 1500 });
    // More than 72 hours ahead all of it anyway, without the grace's words.
    expect(refundOnCancel(bookedAt('2026-12-04T00:00:00Z'), 'traveler', BEFORE)).toEqual({ share: 100, amount: 3001 });
  });
  it('gives all of it back when the guide cancels or declines, whenever', () => {
    expect(refundOnCancel(priced, 'guide', new Date('2026-12-09T02:00:00Z'))).toEqual({ share: 100, amount: 3001 });
  });
});
