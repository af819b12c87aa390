import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/http/session.server';
import { orErrorPage, pageIdParam } from '~/http/page.server';
import { getFixedT } from '~/i18n/i18n.server';
import { getConfig } from '~/env.server';
import { slotEndsAt, slotStartsAt , slotWithHours } from '~/lib/time-slots';
import { getOrderFor } from '~/services/booking/orders.server';

/**
 * /orders/:id/calendar.ics (issue 10 "add to calendar"): the order as an iCalendar event for its traveler, its
 * guide or an admin, at its slot's hours (app/lib/time-slots.ts, Taiwan time).
 */

/** An instant as a UTC iCalendar stamp. */
const stamp = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** RFC 5545 text: backslash, semicolon, comma and line breaks escaped. */
const text = (v: string) => v.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const id = pageIdParam(params.id);
  const order = await orErrorPage(() => getOrderFor(user, id), { existencePrivate: true });
  const t = await getFixedT(request);
  const url = new URL(`/orders/${order.id}`, getConfig().PUBLIC_URL).toString();
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Travel Assistant//Booking//EN',
    'CALSCALE:GREGORIAN',
    'BEGIN:VEVENT',
    `UID:order-${order.id}@${new URL(url).hostname}`,
    `DTSTAMP:${stamp(new Date())}`,
    `DTSTART:${stamp(slotStartsAt(order.date, order.timeSlot))}`,
    `DTEND:${stamp(slotEndsAt(order.date, order.timeSlot))}`,
    `SUMMARY:${text(t('booking.ics.summary', { name: order.guideName, slot: slotWithHours(t, order.timeSlot) }))}`,
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
