import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/http/auth.server';
import { getFixedT } from '~/i18n/i18n.server';
import { getConfig } from '~/env.server';
import { AppError } from '~/services/errors.server';
import { getOrderFor, orderIdParam } from '~/services/orders.server';

/**
 * /orders/:id/calendar.ics (issue 10 "add to calendar"): the order as an iCalendar event for its traveler, its
 * guide or an admin. Slot times are Taiwan time: morning 09:00–12:00, afternoon 13:00–17:00, evening 18:00–21:00.
 */
const HOURS = { morning: [9, 12], afternoon: [13, 17], evening: [18, 21] } as const;

/** A Taiwan wall-clock time (UTC+8, no daylight saving) as a UTC iCalendar stamp. */
const stamp = (date: string, hour: number) =>
  new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), hour - 8)).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** RFC 5545 text: backslash, semicolon, comma and line breaks escaped. */
const text = (v: string) => v.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  let order;
  try {
    order = await getOrderFor(user, orderIdParam(params.id));
  } catch (error) {
    if (error instanceof AppError) throw new Response('Not Found', { status: 404 });
    throw error;
  }
  const t = await getFixedT(request);
  const [start, end] = HOURS[order.timeSlot];
  const url = new URL(`/orders/${order.id}`, getConfig().PUBLIC_URL).toString();
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Travel Assistant//Booking//EN',
    'CALSCALE:GREGORIAN',
    'BEGIN:VEVENT',
    `UID:order-${order.id}@${new URL(url).hostname}`,
    `DTSTAMP:${stamp(new Date().toISOString().slice(0, 10), 8)}`,
    `DTSTART:${stamp(order.date, start)}`,
    `DTEND:${stamp(order.date, end)}`,
    `SUMMARY:${text(t('booking.ics.summary', { name: order.guideName, slot: t(`timeSlots.${order.timeSlot}`) }))}`,
    `DESCRIPTION:${text(t('booking.ics.description', { id: order.id, people: order.numberOfPeople, url }))}`,
    `URL:${url}`,
    `STATUS:${order.status === 'cancelled' || order.status === 'refunded' ? 'CANCELLED' : order.status === 'pending' ? 'TENTATIVE' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return new Response(`${lines.join('\r\n')}\r\n`, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="order-${order.id}.ics"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
