import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { SubmitButton } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { formatTourDayLong } from '~/lib/dates';
import { daySlotsFormSchema, TIME_SLOT_VALUES, type SlotView, type TimeSlot } from '~/schemas/availability';
import type { SaveLogLine } from './__debug-panel';

/** The page's answer to a day's save: the form's result, whether it saved, the debug log's line. */
export interface SaveReply {
  result: SubmissionResult<string[]>;
  saved: boolean;
  log: SaveLogLine | null;
}

/** One day's three slots as checkboxes in one plain form (a booked slot stays open and says why). Not a route (`__`). */
export function DayForm({ date, slots, locked, reply }: { date: string; slots: SlotView[]; locked: boolean; reply: SaveReply | undefined }) {
  const { t, i18n } = useTranslation();
  const actionData = reply;
  const navigation = useNavigation();
  const [form] = useSchemaForm<{ date: string; slots: string[] }>({ id: `day-${date}`, schema: daySlotsFormSchema, lastResult: actionData?.result });
  const state = (slot: TimeSlot) => slots.find((s) => s.time_slot === slot);
  const busy = navigation.state === 'submitting';
  const saved = actionData?.saved && navigation.state === 'idle';
  const headingId = `day-${date}-heading`;
  return (
    <section className="card day-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{formatTourDayLong(date, i18n.language)}</h2>
      <Form method="post" className="form" {...getFormProps(form)} replace preventScrollReset>
        <input type="hidden" name="date" value={date} />
        <fieldset className="field" disabled={locked}>
          <legend className="label-text">{t('booking.availability.slotsLegend')}</legend>
          <div className="slot-toggles">
            {TIME_SLOT_VALUES.map((slot) => {
              const s = state(slot);
              const booked = Boolean(s?.booked);
              const id = `slot-${date}-${slot}`;
              return (
                <div key={slot} className="slot-toggle">
                  <input
                    type="checkbox"
                    id={id}
                    name={booked ? undefined : 'slots'}
                    value={slot}
                    defaultChecked={s?.available === 1 || booked}
                    disabled={booked}
                    aria-describedby={booked ? `${id}-note` : undefined}
                  />
                  <label htmlFor={id}>
                    {t(`timeSlots.${slot}`)} · {t('booking.availability.available')}
                  </label>
                  {booked ? (
                    <>
                      <input type="hidden" name="slots" value={slot} />
                      <span className="small muted" id={`${id}-note`}>
                        {t('booking.availability.bookedNote')}
                      </span>
                    </>
                  ) : null}
                </div>
              );
            })}
          </div>
        </fieldset>
        <FormErrors form={form} />
        {saved ? (
          <p className="form-success" role="status">
            {t('booking.availability.saved')}
          </p>
        ) : null}
        <div className="form-actions">
          <SubmitButton busy={busy} disabled={locked} label={t('booking.availability.save')} busyLabel={t('booking.availability.saving')} />
        </div>
      </Form>
    </section>
  );
}
