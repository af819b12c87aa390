/**
 * The five states of an order (SPEC §4, the state machine in app/services/booking/order-state.server.ts), the one list:
 * db/schema.ts builds the column's check from it, app/schemas validate with it, pages list it.
 */
export const ORDER_STATUSES = ['pending', 'confirmed', 'completed', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
