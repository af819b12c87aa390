import { getFormProps, getInputProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { Trans, useTranslation } from 'react-i18next';
import { ChoiceGroup, Field, SubmitButton, TextareaField } from '~/components/forms/fields';
import { ErrorList, FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { getSession } from '~/http/auth.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { slotPage } from '~/lib/slot-pages';
import { formatTourDay, formatTourDayLong } from '~/lib/tour-dates';
import { bookingFormSchema } from '~/schemas/booking';
import type { SlotView } from '~/schemas/availability';
import { isBookableGuide, listBookableSlots, slotWindow } from '~/services/availability.server';
import { bookSlot } from '~/services/booking.server';
import { AppError } from '~/services/errors.server';
import { findUserById } from '~/services/users.server';

/**
 * /booking/:guideId (issue 10): the guide's open, unbooked slots as radio buttons grouped by day, the number of
 * people, a note and the booking terms; the total (the guide's price for the group, docs/decisions/010) is shown
 * before submitting. Visitors may look; submitting sends them to log in and back here with their choice kept.
 */
export const handle: I18nHandle = { i18n: ['booking'] };

async function loadGuide(raw: string | undefined) {
  const id = raw && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  const guide = Number.isSafeInteger(id) ? await findUserById(id) : undefined;
  if (!isBookableGuide(guide)) throw new Response('Not Found', { status: 404 });
  return guide;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const guide = await loadGuide(params.guideId);
  const session = await getSession(request);
  const user = session?.user;
  const here = new URL(request.url);
  if (user?.type === 'traveler' && !user.isEmailVerified) {
    throw redirect(`/email-verification?${new URLSearchParams({ redirectTo: here.pathname + here.search })}`);
  }
  const [slots, t] = await Promise.all([listBookableSlots(guide.id), getFixedT(request)]);
  const q = here.searchParams;
  // The choice a visitor made before logging in (or a link's suggestion).
  const chosen = { slot: q.get('slot') ?? '', numberOfPeople: q.get('people') ?? '1', note: q.get('note') ?? '' };
  // Two weeks at a time (`?from=`); a chosen slot further out opens the page that holds it.
  const chosenDate = /^\d{4}-\d{2}-\d{2}\|/.test(chosen.slot) ? chosen.slot.slice(0, 10) : null;
  const page = slotPage(slots, { from: q.get('from') ?? chosenDate, today: slotWindow().today });
  return {
    guide: { id: guide.id, name: guide.name, price: guide.price ?? 0 },
    slots: page.slots,
    page: { from: page.from, to: page.to, earlier: page.earlier, later: page.later, total: slots.length },
    viewer: user ? { type: user.type } : null,
    chosen,
    title: t('booking.form.title', { name: guide.name }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request, params }: ActionFunctionArgs) {
  const guide = await loadGuide(params.guideId);
  const formData = await request.formData();
  const session = await getSession(request);
  if (!session) {
    const back = new URLSearchParams();
    for (const [k, name] of [['slot', 'slot'], ['people', 'numberOfPeople'], ['note', 'note']] as const) {
      const v = formData.get(name);
      if (typeof v === 'string' && v) back.set(k, v.slice(0, 500));
    }
    const redirectTo = `/booking/${guide.id}${back.size ? `?${back}` : ''}`;
    return redirectWithToast(`/login?${new URLSearchParams({ redirectTo })}`, { key: 'errors.codes.UNAUTHORIZED', type: 'info' });
  }
  const submission = parseWithZod(formData, { schema: bookingFormSchema });
  if (submission.status !== 'success') return data({ result: submission.reply(), code: 'VALIDATION_ERROR' }, { status: 400 });
  const [date, timeSlot] = submission.value.slot.split('|') as [string, 'morning' | 'afternoon' | 'evening'];
  try {
    const order = await bookSlot(session.user, {
      guideId: guide.id,
      date,
      timeSlot,
      numberOfPeople: submission.value.numberOfPeople,
      note: submission.value.note,
      termsAccepted: true,
    });
    return redirect(`/booking-success?order=${order.id}`);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'EMAIL_NOT_VERIFIED') {
      return redirect(`/email-verification?${new URLSearchParams({ redirectTo: `/booking/${guide.id}` })}`);
    }
    const t = await getFixedT(request);
    const known = ['TIME_CONFLICT', 'GUIDE_NOT_FOUND', 'TRAVELER_NOT_FOUND', 'FORBIDDEN', 'VALIDATION_ERROR'].includes(error.code);
    const message = known ? t(error.messageKey, error.params) : t('booking.form.failed');
    return data(
      { result: submission.reply({ formErrors: [message], fieldErrors: error.fieldErrors }), code: error.code },
      { status: error.status },
    );
  }
}

function groupByDay(slots: SlotView[]) {
  const days = new Map<string, SlotView[]>();
  for (const s of slots) days.set(s.date, [...(days.get(s.date) ?? []), s]);
  return [...days];
}

export default function Booking() {
  const { guide, slots, page, viewer, chosen } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const [form, fields] = useSchemaForm<{ slot: string; numberOfPeople: string; note: string; termsAccepted: string }>({
    id: 'booking',
    schema: bookingFormSchema,
    lastResult: actionData?.result,
    defaultValue: { slot: chosen.slot, numberOfPeople: chosen.numberOfPeople, note: chosen.note },
  });
  const conflict = actionData?.code === 'TIME_CONFLICT';
  const mayBook = !viewer || viewer.type === 'traveler';
  const total = formatNtd(guide.price, locale);
  const termsId = fields.termsAccepted.id;
  // The other pages of the list keep what the URL already carries (a choice kept through login).
  const pageHref = (from: string) => {
    const q = new URLSearchParams(location.search);
    q.set('from', from);
    return `?${q}`;
  };
  // One radio group over all days: each day is a fieldset of the kit's ChoiceGroup; the errors are said once.
  const slotField = fields.slot;

  return (
    <div className="booking-page">
      <h1>{t('booking.form.heading', { name: guide.name })}</h1>
      <p>
        <Link to={`/guides/${guide.id}`}>{t('booking.form.backToGuide')}</Link>
      </p>
      {!mayBook ? (
        <div className="notice-card" role="note">
          <p>{t('booking.form.travelersOnly')}</p>
        </div>
      ) : null}
      {page.total === 0 ? (
        <p className="empty card">{t('booking.form.noSlots')}</p>
      ) : (
        <Form method="post" className="form booking-form" {...getFormProps(form)}>
          {conflict ? <p className="muted small">{t('booking.form.conflictHint')}</p> : null}
          <fieldset className="field slot-picker" aria-describedby={slotField.errors ? slotField.errorId : undefined}>
            <legend className="label-text">{t('booking.form.slotLegend')}</legend>
            <p className="muted small slot-range">
              {t('booking.form.showingDays', { from: formatTourDay(page.from, locale), to: formatTourDay(page.to, locale) })}
            </p>
            {slots.length === 0 ? <p className="muted">{t('booking.form.noSlotsHere')}</p> : null}
            {groupByDay(slots).map(([day, daySlots]) => (
              <ChoiceGroup
                key={day}
                field={slotField}
                errorsSaidOutside
                type="radio"
                legend={formatTourDayLong(day, locale)}
                className="booking-day"
                legendClassName="booking-day-title"
                optionsClassName="slot-options"
                optionClassName="slot-option"
                options={daySlots.map((s) => ({
                  value: `${s.date}|${s.time_slot}`,
                  // Short on screen (the day is the legend), whole for screen readers ("Tue 14 May, morning, open").
                  label: (
                    <>
                      <span aria-hidden="true">{t(`timeSlots.${s.time_slot}`)}</span>
                      <span className="visually-hidden">
                        {t('booking.form.slotOption', { day: formatTourDay(s.date, locale), slot: t(`timeSlots.${s.time_slot}`) })}
                      </span>
                    </>
                  ),
                }))}
              />
            ))}
            <ErrorList id={slotField.errorId} errors={slotField.errors} />
            {page.earlier || page.later ? (
              <nav className="slot-pages" aria-label={t('booking.form.datesNav')}>
                {page.earlier ? (
                  <Link to={pageHref(page.earlier)} rel="prev" preventScrollReset>
                    ← {t('booking.form.earlierDates')}
                  </Link>
                ) : null}
                {page.later ? (
                  <Link to={pageHref(page.later)} rel="next" preventScrollReset>
                    {t('booking.form.laterDates')} →
                  </Link>
                ) : null}
              </nav>
            ) : null}
          </fieldset>
          <Field field={fields.numberOfPeople} type="number" label={t('booking.form.people')} min={1} max={50} inputMode="numeric" hint={t('booking.form.peopleHint')} />
          <TextareaField field={fields.note} label={t('booking.form.note')} hint={t('booking.form.noteHint')} />
          <div className="field">
            <div className="terms-check">
              <input {...getInputProps(fields.termsAccepted, { type: 'checkbox' })} key={fields.termsAccepted.key} />
              <label htmlFor={termsId}>
                <Trans i18nKey="booking.form.terms" components={{ terms: <Link to="/booking-terms" target="_blank" rel="noopener" /> }} />
              </label>
            </div>
            <ErrorList id={fields.termsAccepted.errorId} errors={fields.termsAccepted.errors} />
          </div>
          <p className="booking-total" aria-live="polite">
            <span className="label">{t('booking.form.total')}</span> <strong>{total}</strong>{' '}
            <span className="muted small">{t('booking.form.perGroup')}</span>
          </p>
          <FormErrors form={form} />
          <div className="form-actions">
            <SubmitButton
              busy={navigation.state === 'submitting'}
              disabled={!mayBook}
              className="button button-large"
              label={viewer ? t('booking.form.submit') : t('booking.form.loginToBook')}
              busyLabel={t('booking.form.submitting')}
            />
          </div>
        </Form>
      )}
    </div>
  );
}
