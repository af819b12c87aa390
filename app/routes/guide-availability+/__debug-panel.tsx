import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLargeSaveAnswer, SAVE_ANSWER_WARN_BYTES } from '~/lib/save-answer';
import { TIME_SLOT_VALUES, type SlotView, type TimeSlot } from '~/schemas/availability';

/** One line of the debug panel's log: what a save sent, the answer's status and size (SPEC §2, issue 10). */
export interface SaveLogLine {
  at: string;
  sent: { date: string; slots: string[] };
  status: number;
  bytes: number;
}

const LOG_LINES = 5;

/**
 * The debug panel (issue 10: admins, and everyone in development): the last 5 saves of this page and the slot
 * states of the shown days. The log lives in the browser (sessionStorage, per guide) and grows after each save;
 * without JS the server renders the one save it just answered. An answer over 10,000 bytes is a console warning.
 */
export function DebugPanel({ guideId, days, byDay, reply }: { guideId: number; days: string[]; byDay: Map<string, SlotView[]>; reply: { log: SaveLogLine | null } | undefined }) {
  const { t } = useTranslation();
  const actionData = reply;
  const storageKey = `availability-debug-log:${guideId}`;
  const [lines, setLines] = useState<SaveLogLine[]>(() => (actionData?.log ? [actionData.log] : []));
  useEffect(() => {
    try {
      const kept = JSON.parse(sessionStorage.getItem(storageKey) ?? '[]') as SaveLogLine[];
      setLines((now) => (now.length ? now : kept.slice(-LOG_LINES)));
    } catch {
      // Private mode or a damaged entry: start an empty log.
    }
  }, [storageKey]);
  useEffect(() => {
    const line = actionData?.log;
    if (!line) return;
    if (isLargeSaveAnswer(line.bytes)) console.warn(`availability save answer is ${line.bytes} bytes (over ${SAVE_ANSWER_WARN_BYTES})`, line);
    setLines((now) => {
      const next = [...now.filter((l) => l.at !== line.at), line].slice(-LOG_LINES);
      try {
        sessionStorage.setItem(storageKey, JSON.stringify(next));
      } catch {
        // The panel still shows this visit's lines.
      }
      return next;
    });
  }, [actionData, storageKey]);
  const stateOf = (day: string, slot: TimeSlot) => {
    const s = (byDay.get(day) ?? []).find((x) => x.time_slot === slot);
    if (!s) return 'unset';
    if (s.booked) return 'booked';
    return s.available === 1 ? 'open' : 'closed';
  };
  return (
    <details className="card debug-panel" data-testid="availability-debug" open>
      <summary>{t('booking.availability.debug.title')}</summary>
      <h2 className="small">{t('booking.availability.debug.log')}</h2>
      {lines.length ? (
        <ol className="debug-log small">
          {lines.map((l) => (
            <li key={l.at}>
              <code>{`${l.at} ${t('booking.availability.debug.sent')} ${l.sent.date} [${l.sent.slots.join(', ')}] → ${l.status}, ${l.bytes} B`}</code>
              {isLargeSaveAnswer(l.bytes) ? <strong> {t('booking.availability.debug.large')}</strong> : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted small">{t('booking.availability.debug.noLog')}</p>
      )}
      <h2 className="small">{t('booking.availability.debug.states')}</h2>
      <div className="table-scroll">
        <table className="debug-states small">
          <thead>
            <tr>
              <th scope="col">{t('booking.availability.debug.date')}</th>
              {TIME_SLOT_VALUES.map((slot) => (
                <th key={slot} scope="col">
                  {t(`timeSlots.${slot}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {TIME_SLOT_VALUES.map((slot) => (
                  <td key={slot}>{t(`booking.availability.debug.state.${stateOf(day, slot)}`)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
