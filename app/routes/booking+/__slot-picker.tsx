import { useTranslation } from 'react-i18next';
import { ChoiceGroup, type AnyField } from '~/components/forms/form-fields';
import { ErrorList } from '~/components/forms/messages';
import { formatTourDay, formatTourDayLong } from '~/lib/dates';
import { slotHoursText, TIME_SLOTS, type TimeSlot } from '~/lib/time-slots';

/** The booking form's slots (issue 19): a value "YYYY-MM-DD|slot" per radio. Not a route (`__`). */
export type Slot = { date: string; timeSlot: TimeSlot; held?: boolean };

const isoDay = /^\d{4}-\d{2}-\d{2}$/;

export const slotValue = (s: Slot) => `${s.date}|${s.timeSlot}`;

/** A form value "YYYY-MM-DD|slot" as a slot, or null for anything else. */
export function parseSlot(value: unknown): Slot | null {
  if (typeof value !== 'string') return null;
  const [date, timeSlot] = value.split('|');
  return date && isoDay.test(date) && TIME_SLOTS.includes(timeSlot as TimeSlot) ? { date, timeSlot: timeSlot as TimeSlot } : null;
}

/** conform's id of one radio of a collection (getCollectionProps). */
export const radioId = (fieldId: string, value: string) => `${fieldId}-${value}`;

/** Each day's open slots as radio buttons, the shown day's only (the others hidden, still in the form). */
export function SlotPicker({ field, days, slots, shownDay }: { field: AnyField; days: readonly string[]; slots: readonly Slot[]; shownDay: string | null }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <fieldset className="field slot-picker" aria-describedby={field.errors ? field.errorId : undefined}>
      <legend className="label-text">{t('booking.form.slotLegend')}</legend>
      {days.map((d) => (
        <div key={d} hidden={d !== shownDay} className="booking-day-slots">
          <ChoiceGroup
            field={field}
            errorsSaidOutside
            type="radio"
            legend={formatTourDayLong(d, locale)}
            className="booking-day"
            legendClassName="booking-day-title"
            optionsClassName="slot-options"
            optionClassName="slot-option"
            options={slots
              .filter((s) => s.date === d)
              .map((s) => ({
                value: slotValue(s),
                // Short on screen (the day is the legend), whole for screen readers ("Tue 14 May, morning, open").
                label: (
                  <>
                    <span aria-hidden="true">
                      {t(`timeSlots.${s.timeSlot}`)} <span className="slot-hours">{slotHoursText(s.timeSlot)}</span>
                      {s.held ? <span className="slot-held"> {t('booking.form.heldSlot')}</span> : null}
                    </span>
                    <span className="visually-hidden">
                      {t(s.held ? 'booking.form.slotOptionHeld' : 'booking.form.slotOption', {
                        day: formatTourDay(s.date, locale),
                        slot: t(`timeSlots.${s.timeSlot}`),
                        hours: slotHoursText(s.timeSlot),
                      })}
                    </span>
                  </>
                ),
              }))}
          />
        </div>
      ))}
      <p className="muted small">{t('booking.form.cutoffNote')}</p>
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}
