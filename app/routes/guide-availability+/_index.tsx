import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { requireUser } from '~/http/session.server';
import { attempt } from '~/http/forms.server';
import { orErrorPage, pageIdParam, readForm } from '~/http/page.server';
import { showsDebugPanel, warnIfLargeSaveAnswer } from '~/http/debug.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { addDays, formatMonth, formatTourDayLong, weekdayOf } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { daySlotsFormSchema, type SlotView } from '~/schemas/availability';
import { findGuide, listSlots, setSlots, slotWindow } from '~/services/catalogue/availability.server';
import { DayForm, type SaveReply } from './__day-form';
import { DebugPanel, type SaveLogLine } from './__debug-panel';

/**
 * /guide-availability (SPEC §2 Guide availability screen, issue 10): a server-rendered month table from today to
 * 60 days ahead (Taiwan dates); picking a day (`?date=`) shows its three slots as checkboxes in one plain form.
 * Guides see their own calendar; an admin opens any guide's with `?guideId=`; others go to `/`.
 */
export const handle: I18nHandle = { i18n: ['booking'] };

const isDate = (v: string | null): v is string => Boolean(v && /^\d{4}-\d{2}-\d{2}$/.test(v));

async function whose(request: Request) {
  const { user } = await requireUser(request);
  if (user.type !== 'guide' && user.type !== 'admin') throw redirect('/');
  const url = new URL(request.url);
  if (user.type === 'guide') return { user, guideId: user.id };
  return { user, guideId: pageIdParam(url.searchParams.get('guideId')) };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, guideId } = await whose(request);
  const guide = await orErrorPage(() => findGuide(guideId));
  const url = new URL(request.url);
  const { today, last } = slotWindow();
  const dateParam = url.searchParams.get('date');
  const selected = isDate(dateParam) && dateParam >= today && dateParam <= last ? dateParam : null;
  const monthParam = url.searchParams.get('month');
  let month = (selected ?? today).slice(0, 7);
  if (monthParam && /^\d{4}-\d{2}$/.test(monthParam) && monthParam >= today.slice(0, 7) && monthParam <= last.slice(0, 7)) month = monthParam;
  const [{ slots }, t] = await Promise.all([listSlots(guideId), getFixedT(request)]);
  const locked = user.type !== 'admin' && !guide.isIdVerified;
  return {
    guide: { id: guide.id, name: guide.name, price: guide.price },
    asAdmin: user.type === 'admin',
    debug: showsDebugPanel(user),
    locked,
    emailUnverified: user.type !== 'admin' && !guide.isEmailVerified,
    today,
    last,
    month,
    selected,
    slots,
    title: t('booking.availability.title'),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request }: ActionFunctionArgs) {
  const { user, guideId } = await whose(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: daySlotsFormSchema });
  const t = await getFixedT(request);
  if (submission.status !== 'success') return data({ result: submission.reply(), saved: false, log: null as SaveLogLine | null }, { status: 400 });
  const { date, slots } = submission.value;
  // One line of the debug panel's log: what was sent, the answer's status and size (SPEC §2, issue 10).
  const logLine = (status: number, answer: unknown): SaveLogLine => ({
    at: new Date().toISOString(),
    sent: { date, slots },
    status,
    bytes: warnIfLargeSaveAnswer(answer, `/guide-availability save for guide ${guideId}`),
  });
  const saved = await attempt(() =>
    setSlots(user, guideId, {
      days: [date],
      open: slots.map((s) => ({ date, timeSlot: s, description: `${t(`timeSlots.${s}`)} ${t('booking.availability.service')}` })),
    }),
  );
  if (saved.ok) return data({ result: submission.reply({ resetForm: false }), saved: true, log: logLine(200, { success: true, data: saved.value }) });
  const { error } = saved;
  // A field's problem (a day outside the window) says what is wrong rather than "invalid data".
  const firstFieldKey = error.fieldErrors ? Object.values(error.fieldErrors)[0]?.[0] : undefined;
  const reason = firstFieldKey ? t(firstFieldKey) : t(error.messageKey, error.params);
  const message = t('booking.availability.saveFailed', { message: reason });
  const log = logLine(error.status, { success: false, code: error.code, message });
  return data({ result: submission.reply({ formErrors: [message] }), saved: false, log }, { status: error.status });
}

/** Weeks of the month as rows of 7 cells (Sunday first); null pads the edges. */
function monthWeeks(month: string): (string | null)[][] {
  const first = `${month}-01`;
  const days: (string | null)[] = Array(weekdayOf(first)).fill(null);
  for (let d = first; d.startsWith(month); d = addDays(d, 1)) days.push(d);
  while (days.length % 7) days.push(null);
  return Array.from({ length: days.length / 7 }, (_, i) => days.slice(i * 7, i * 7 + 7));
}

const shiftMonth = (month: string, by: number) => addDays(`${month}-15`, by * 30).slice(0, 7);

export default function GuideAvailability() {
  const { guide, asAdmin, debug, locked, emailUnverified, today, last, month, selected, slots } = useLoaderData<typeof loader>();
  const reply: SaveReply | undefined = useActionData<typeof action>();
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const byDay = new Map<string, SlotView[]>();
  for (const s of slots) byDay.set(s.date, [...(byDay.get(s.date) ?? []), s]);
  const query = (params: Record<string, string>) => {
    const q = new URLSearchParams(asAdmin ? { guideId: String(guide.id), ...params } : params);
    return `?${q}`;
  };
  const prev = shiftMonth(month, -1);
  const next = shiftMonth(month, 1);
  const weekdays = Array.from({ length: 7 }, (_, i) =>
    new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 7 + i))),
  );
  const weekdaysLong = Array.from({ length: 7 }, (_, i) =>
    new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 7 + i))),
  );

  return (
    <div className="availability-page">
      <h1>{t('booking.availability.title')}</h1>
      {asAdmin ? <p className="muted">{t('booking.availability.adminFor', { name: guide.name })}</p> : null}
      <p className="muted small">{t('booking.availability.intro')}</p>
      {locked ? (
        <div className="notice-card locked-banner" role="note">
          <p>
            <strong>{t('booking.availability.lockedTitle')}</strong>
            {t('booking.availability.lockedBody')}
          </p>
          <Link to="/id-verification" className="button button-small">
            {t('booking.availability.goVerify')}
          </Link>
        </div>
      ) : emailUnverified ? (
        <div className="notice-card" role="note">
          <p>{t('booking.availability.emailFirst')}</p>
        </div>
      ) : null}

      <div className={locked ? 'calendar-wrap is-locked' : 'calendar-wrap'}>
        <nav className="calendar-nav" aria-label={t('booking.availability.monthNav')}>
          {prev >= today.slice(0, 7) ? (
            <Link to={query({ month: prev })} rel="prev">
              ← {t('booking.availability.prevMonth')}
            </Link>
          ) : (
            <span aria-disabled="true">← {t('booking.availability.prevMonth')}</span>
          )}
          {next <= last.slice(0, 7) ? (
            <Link to={query({ month: next })} rel="next">
              {t('booking.availability.nextMonth')} →
            </Link>
          ) : (
            <span aria-disabled="true">{t('booking.availability.nextMonth')} →</span>
          )}
        </nav>
        <table className="calendar">
          <caption>{formatMonth(`${month}-01`, locale)}</caption>
          <thead>
            <tr>
              {weekdays.map((w, i) => (
                <th key={i} scope="col" abbr={weekdaysLong[i]}>
                  {w}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {monthWeeks(month).map((week, wi) => (
              <tr key={wi}>
                {week.map((day, di) => {
                  if (!day) return <td key={di} />;
                  const dayNumber = Number(day.slice(8));
                  const inWindow = day >= today && day <= last;
                  const open = (byDay.get(day) ?? []).filter((s) => s.available === 1).length;
                  if (!inWindow) {
                    return (
                      <td key={di} className="calendar-out">
                        <span>{dayNumber}</span>
                      </td>
                    );
                  }
                  const label = `${formatTourDayLong(day, locale)}${t('booking.availability.openCount', { count: open })}`;
                  return (
                    <td key={di} className={day === selected ? 'is-selected' : undefined}>
                      <Link to={query({ month, date: day })} aria-label={label} aria-current={day === selected ? 'date' : undefined}>
                        <span className="calendar-day">{dayNumber}</span>
                        {open > 0 ? (
                          <span className="calendar-open" aria-hidden="true">
                            <span className="dot" /> {t('booking.availability.open')}
                          </span>
                        ) : null}
                      </Link>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {selected ? <DayForm key={selected} date={selected} slots={byDay.get(selected) ?? []} locked={locked} reply={reply} /> : (
        <p className="muted">{t('booking.availability.pickDay')}</p>
      )}
      {debug ? <DebugPanel guideId={guide.id} days={monthWeeks(month).flat().filter((d): d is string => Boolean(d && d >= today && d <= last))} byDay={byDay} reply={reply} /> : null}
    </div>
  );
}
