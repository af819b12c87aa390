import { Link } from '@remix-run/react';
import { useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useHydrated } from '~/components/hydrated';
import { formatTourDay } from '~/lib/dates';

/** Arrow keys move along the days; Home and End go to the first and the last. */
const STEP: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * The booking form's day picker (issues 19, 35): a link per day with open slots (`?day=`, works without JS). With JS
 * it is one tab stop, as a tab list is: the shown day takes the focus, the arrow keys, Home and End move to another
 * day and show its slots, and Tab goes on to them (it was 60 tab stops before the slots). Not a route (`__`).
 */
export function DayPicker({
  days,
  openCount,
  shownDay,
  hrefOf,
  onPick,
}: {
  days: readonly string[];
  openCount: (day: string) => number;
  shownDay: string | null;
  hrefOf: (day: string) => string;
  onPick: (day: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const hydrated = useHydrated();
  const list = useRef<HTMLUListElement>(null);
  // Day chips: the weekday over the month and day, short enough for seven in a row on a phone.
  const chipWeekday = useMemo(() => new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }), [locale]);
  const chipDate = useMemo(() => new Intl.DateTimeFormat(locale, { month: 'numeric', day: 'numeric', timeZone: 'UTC' }), [locale]);
  const click = (event: MouseEvent<HTMLAnchorElement>, day: string) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    onPick(day);
  };
  const keyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const links = [...(list.current?.querySelectorAll<HTMLAnchorElement>('a[data-day]') ?? [])];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (at < 0) return;
    const to = event.key in STEP ? at + STEP[event.key]! : event.key === 'Home' ? 0 : event.key === 'End' ? links.length - 1 : null;
    if (to === null) return;
    event.preventDefault();
    const next = links[Math.min(links.length - 1, Math.max(0, to))]!;
    next.focus();
    onPick(next.dataset.day!);
  };
  // The one tab stop: the shown day (the first when none is shown).
  const focusable = shownDay && days.includes(shownDay) ? shownDay : days[0];
  return (
    <nav className="day-picker" aria-labelledby="day-picker-title" aria-describedby={hydrated ? 'day-picker-keys' : undefined}>
      <h2 id="day-picker-title" className="label-text">
        {t('booking.form.dayLegend')}
      </h2>
      {hydrated ? (
        <p id="day-picker-keys" className="visually-hidden">
          {t('booking.form.dayKeys')}
        </p>
      ) : null}
      <ul ref={list} onKeyDown={hydrated ? keyDown : undefined}>
        {days.map((d) => (
          <li key={d}>
            <Link
              to={hrefOf(d)}
              preventScrollReset
              replace
              aria-current={d === shownDay ? 'date' : undefined}
              tabIndex={hydrated ? (d === focusable ? 0 : -1) : undefined}
              onClick={(e) => click(e, d)}
              data-day={d}
            >
              <span className="day-chip-weekday" aria-hidden="true">
                {chipWeekday.format(new Date(`${d}T00:00:00Z`))}
              </span>
              <span className="day-chip-date" aria-hidden="true">
                {chipDate.format(new Date(`${d}T00:00:00Z`))}
              </span>
              <span className="visually-hidden">{formatTourDay(d, locale)}</span>
              <span className="visually-hidden">{t('booking.form.dayOpen', { count: openCount(d) })}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
