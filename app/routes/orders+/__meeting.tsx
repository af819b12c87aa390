import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field, SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { telHref } from '~/lib/phone';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { MEETING_POINT_MAX, orderConfirmFormSchema, type MeetingDetails } from '~/schemas/orders';

/**
 * Where the traveler meets the guide (issue 35). Not a route (the `__` prefix): app/routes/orders+/$id.tsx renders
 * the guide's confirmation step (the meeting point and a phone are asked for before a booking is accepted: the
 * server's answer without JS, the button's click with JS) and, once given, the details for both parties.
 */
export function ConfirmWithMeeting({
  defaults,
  lastResult,
  busy,
  onBack,
}: {
  defaults: MeetingDetails | null;
  lastResult: SubmissionResult<string[]> | null;
  busy: boolean;
  /** With JS: back to the order without a round trip. Without JS the step is a page, left by its link. */
  onBack?: () => void;
}) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm<{ intent: string; meetingPoint: string; guidePhone: string }>({
    id: 'order-confirm',
    schema: orderConfirmFormSchema,
    lastResult,
    defaultValue: defaults ?? undefined,
  });
  return (
    <section className="card confirm-meeting" aria-labelledby="confirm-meeting-title" data-testid="confirm-meeting">
      <h2 id="confirm-meeting-title">{t('orders.meeting.confirmTitle')}</h2>
      <p className="muted small">{t('orders.meeting.confirmLead')}</p>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="confirm" />
        <TextareaField
          field={fields.meetingPoint}
          label={t('orders.meeting.point')}
          hint={t('orders.meeting.pointHint', { max: MEETING_POINT_MAX })}
          rows={3}
          maxLength={MEETING_POINT_MAX}
        />
        <Field field={fields.guidePhone} type="tel" label={t('orders.meeting.phone')} hint={t('orders.meeting.phoneHint')} autoComplete="tel" inputMode="tel" />
        <FormErrors form={form} />
        <div className="form-actions">
          <SubmitButton busy={busy} label={t('orders.meeting.submit')} busyLabel={t('orders.actions.working')} />
          {onBack ? (
            <button type="button" className="button button-secondary" onClick={onBack}>
              {t('orders.meeting.back')}
            </button>
          ) : (
            <a className="button button-secondary" href="?">
              {t('orders.meeting.back')}
            </a>
          )}
        </div>
      </Form>
    </section>
  );
}

/** The meeting point and the guide's phone (a `tel:` link), as both parties read them on the order. */
export function MeetingFacts({ meetingPoint, guidePhone }: { meetingPoint: string | null; guidePhone: string | null }) {
  const { t } = useTranslation();
  if (!meetingPoint && !guidePhone) return null;
  return (
    <dl className="facts meeting-facts" data-testid="meeting-facts">
      {meetingPoint ? (
        <div>
          <dt>{t('orders.meeting.point')}</dt>
          <dd className="meeting-point">{meetingPoint}</dd>
        </div>
      ) : null}
      {guidePhone ? (
        <div>
          <dt>{t('orders.meeting.phone')}</dt>
          <dd>
            <a href={telHref(guidePhone)} className="tel-link">
              {guidePhone}
            </a>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
