import { getFormProps, getInputProps } from '@conform-to/react';
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Field, SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { ErrorList } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { getSession } from '~/http/session.server';
import { countGuideView } from '~/http/views.server';
import { attempt, submitForm } from '~/http/forms.server';
import { limitLog } from '~/http/request-context.server';
import { formKeyFor, freshFormKey, keyedFormSubmit } from '~/http/form-keys.server';
import { FORM_KEY_FIELD } from '~/lib/form-key';
import { invariantResponse, pageErrorResponse, pageIdParam, readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { bookingFormSchema } from '~/schemas/booking';
import { listSlotsToBook } from '~/services/catalogue/availability.server';
import { isPublishableGuide } from '~/services/catalogue/guide-publishable.server';
import { bookSlot } from '~/services/booking/booking.server';
import { checkoutPath } from '~/services/payments/order-payments.server';
import { getGuideDetail } from '~/services/catalogue/guides.server';
import { findUserById } from '~/services/accounts/users.server';
import { DayPicker } from './__day-picker';
import { ErrorSummary } from './__error-summary';
import { parseSlot, radioId, SlotPicker, slotValue } from './__slot-picker';
import { BookingSummary } from './__summary';

/**
 * /booking/:guideId (issues 10 and 19): a summary of the booking first (the guide, the chosen slot and its hours,
 * the number of people, the total and the cancellation policy; beside the form and kept in view on a laptop),
 * then a compact day picker (links `?day=YYYY-MM-DD`, switched in place with JS), that day's open slots as radio
 * buttons, the number of people, a note and the booking terms. The total is the guide's price for the group and
 * slot (docs/decisions/010). Visitors may look; submitting sends them to log in (or register) and back here with
 * their choice kept. A refused form opens at an error summary whose links lead to the fields.
 */
export const handle: I18nHandle = { i18n: ['booking', 'search'] };

/** Where a refused form opens (its action URL ends with this fragment, so the browser scrolls there). */
const ERRORS_ID = 'booking-errors';
const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** The form's path: the scope of its one-time keys, whatever search the page had. */
const bookingPath = (guideId: number) => `/booking/${guideId}`;

async function loadGuide(raw: string | undefined) {
  const guide = await findUserById(pageIdParam(raw));
  invariantResponse(isPublishableGuide(guide));
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
  const locale = await getLocale(request);
  const [slots, t, detail, , formKey] = await Promise.all([
    listSlotsToBook(guide.id, user?.type === 'traveler' ? user.id : undefined),
    getFixedT(request),
    // The summary's photo, rating and badge: the guide page's (cached) read; a bookable guide is a publishable one.
    attempt(() => getGuideDetail(guide.id, { locale })).then((read) => (read.ok ? read.value : null)),
    // The statistics' funnel (docs/decisions/025): one upsert beside the reads; never fails the page.
    countGuideView(request, user, guide.id, 'booking_form'),
    // The form's one-time key (docs/decisions/042): a second submit of this form lands on the first one's answer.
    formKeyFor(user?.type === 'traveler' ? user.id : undefined, bookingPath(guide.id)),
  ]);
  const q = here.searchParams;
  // The choice a visitor made before logging in, or a link's suggestion: `?slot=YYYY-MM-DD|morning` (what the
  // guide page's slot chips write) or `?date=YYYY-MM-DD&timeSlot=morning` (the names the /guides filter uses).
  const linked = q.get('date') && q.get('timeSlot') ? `${q.get('date')}|${q.get('timeSlot')}` : '';
  const chosen = { slot: q.get('slot') ?? linked, numberOfPeople: q.get('people') ?? '1', note: q.get('note') ?? '' };
  // The days that have a bookable slot; the page shows one of them: `?day=`, else the chosen slot's, else the first.
  const days = [...new Set(slots.map((s) => s.date))];
  const asked = [q.get('day'), chosen.slot.slice(0, 10)].find((d) => d && isoDay.test(d) && days.includes(d));
  return {
    guide: {
      id: guide.id,
      name: guide.name,
      price: guide.price ?? 0,
      photo: detail?.photos[0]?.url ?? null,
      avatarUrl: detail?.guide.avatarUrl ?? null,
      averageRating: detail?.guide.averageRating ?? null,
      reviewCount: detail?.guide.reviewCount ?? 0,
      isIdVerified: guide.isIdVerified,
      maxGroupSize: guide.maxGroupSize,
    },
    slots: slots.map((s) => ({ date: s.date, timeSlot: s.time_slot, held: s.held })),
    days,
    day: asked ?? days[0] ?? null,
    viewer: user ? { type: user.type } : null,
    chosen,
    formKey,
    title: t('booking.form.title', { name: guide.name }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

/** The form posts here; the booking service alone decides (the guide, the e-mail state, the slot, the limits). */
export async function action({ request, params }: ActionFunctionArgs) {
  const guideId = pageIdParam(params.guideId);
  const formData = await readForm(request);
  const session = await getSession(request);
  if (!session) {
    const back = new URLSearchParams();
    for (const [k, name] of [['slot', 'slot'], ['people', 'numberOfPeople'], ['note', 'note']] as const) {
      const v = formData.get(name);
      if (typeof v === 'string' && v) back.set(k, v.slice(0, 500));
    }
    const redirectTo = `/booking/${guideId}${back.size ? `?${back}` : ''}`;
    return redirectWithToast(`/login?${new URLSearchParams({ redirectTo })}`, { key: 'errors.codes.UNAUTHORIZED', type: 'info' });
  }
  return submitForm(
    request,
    formData,
    bookingFormSchema,
    async ({ slot, numberOfPeople, note }) =>
      // A repeated submit of this form (its hidden key) gets the first one's redirect: the same order.
      keyedFormSubmit(formData, { userId: session.user.id, path: bookingPath(guideId) }, { slot, numberOfPeople, note }, async () => {
        const { order, payment } = await bookSlot(session.user, { guideId, ...slot, numberOfPeople, note, termsAccepted: true }, undefined, undefined, limitLog(request));
        // A paid tour goes on to its payment step; a free one is booked.
        return redirect(payment ? checkoutPath(order.id) : `/booking-success?order=${order.id}`);
      }),
    {
      wordFieldErrors: true,
      // The re-rendered form gets a new key: the refused submission kept nothing, and a key already used with other
      // values (IDEMPOTENCY_KEY_REUSED) must not be sent again.
      extra: { formKey: freshFormKey() },
      explain: (error) => {
        if (error.code === 'EMAIL_NOT_VERIFIED') return redirect(`/email-verification?${new URLSearchParams({ redirectTo: `/booking/${guideId}` })}`);
        // A guide who cannot be booked (unknown, suspended, not publishable) is the 404 page, as on GET.
        if (error.code === 'GUIDE_NOT_FOUND') return pageErrorResponse(error) as Response;
        return error;
      },
    },
  );
}

/** What the summary shows: the form's current slot and people (live with JS), else what the server knows. */
function readLive(form: HTMLFormElement) {
  const formData = new FormData(form);
  return { slot: String(formData.get('slot') ?? ''), people: String(formData.get('numberOfPeople') ?? '') };
}

export default function Booking() {
  const { guide, slots, days, day, viewer, chosen, formKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const replyKey = actionData && 'formKey' in actionData && typeof actionData.formKey === 'string' ? actionData.formKey : undefined;
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
  const slotField = fields.slot;
  const bookable = new Set(slots.map(slotValue));

  // With JS the summary follows the form; without it, what the server knows (the URL's or the refused form's).
  const [live, setLive] = useState<{ slot: string; people: string } | null>(null);
  const [pickedDay, setPickedDay] = useState<string | null>(null);
  const [errorsWanted, setErrorsWanted] = useState(false);
  const errorsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    setPickedDay(null);
    setLive(null);
  }, [actionData, location.key]);
  // A refused post (with JS) moves the focus to the error summary once it is shown.
  useEffect(() => {
    if (actionData) setErrorsWanted(true);
  }, [actionData]);
  const shownSlotValue = live?.slot ?? (typeof slotField.value === 'string' ? slotField.value : '');
  const current = bookable.has(shownSlotValue) ? parseSlot(shownSlotValue) : null;
  const peopleText = live?.people ?? (typeof fields.numberOfPeople.value === 'string' ? fields.numberOfPeople.value : '');
  const people = /^\s*\d{1,3}\s*$/.test(peopleText) && Number(peopleText) > 0 ? Number(peopleText) : null;
  // The day shown: one picked here (JS), else a refused form's slot's, else the loader's.
  const refusedDay = actionData && current ? current.date : null;
  const shownDay = pickedDay ?? refusedDay ?? day;

  // A refused form (the server's answer, or the browser's check with JS) says what is wrong at the top.
  const fieldErrors = (['slot', 'numberOfPeople', 'note', 'termsAccepted'] as const)
    .map((name) => ({ name, field: fields[name] }))
    .filter(({ field }) => field.errors?.length);
  const firstRadioOfDay = slots.find((s) => s.date === shownDay);
  const slotTarget = current && current.date === shownDay ? slotValue(current) : firstRadioOfDay ? slotValue(firstRadioOfDay) : null;
  const slotAnchor = slotTarget ? radioId(slotField.id, slotTarget) : undefined;
  const anchorOf = (name: (typeof fieldErrors)[number]['name']) => (name === 'slot' ? slotAnchor : fields[name].id);
  const hasErrors = fieldErrors.length > 0 || Boolean(form.errors?.length);
  useEffect(() => {
    if (!errorsWanted || !hasErrors) return;
    errorsRef.current?.focus();
    setErrorsWanted(false);
  }, [errorsWanted, hasErrors, fields]);

  const conflict = !!actionData && 'code' in actionData && actionData.code === 'TIME_CONFLICT';
  // The traveler already holds this slot: their order (which offers payment while it is unpaid), not another slot.
  const refusal = actionData as { code?: string; details?: { orderId?: number } } | undefined;
  const heldOrderId = refusal?.code === 'ALREADY_BOOKED' ? refusal.details?.orderId : undefined;
  const mayBook = !viewer || viewer.type === 'traveler';
  const total = formatNtd(guide.price, locale);
  const termsId = fields.termsAccepted.id;
  // Day links keep what the URL already carries (a choice kept through login) and work without JS.
  const dayHref = (d: string) => {
    const q = new URLSearchParams(location.search);
    q.set('day', d);
    return `?${q}`;
  };
  const formProps = getFormProps(form);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    formProps.onSubmit(event);
    // The browser's own check refused it (conform prevented the post): the summary takes the focus.
    if (event.defaultPrevented) setErrorsWanted(true);
  };

  return (
    <div className="booking-page">
      <h1>{t('booking.form.heading', { name: guide.name })}</h1>
      <p className="booking-back">
        <Link to={`/guides/${guide.id}`}>{t('booking.form.backToGuide')}</Link>
      </p>
      <ErrorSummary
        id={ERRORS_ID}
        ref={errorsRef}
        formErrors={form.errors}
        formErrorAnchor={conflict ? slotAnchor : undefined}
        heldOrderId={heldOrderId}
        fieldErrors={fieldErrors.map(({ name, field }) => ({ name, errors: field.errors, anchor: anchorOf(name) }))}
      />
      {!mayBook ? (
        <div className="notice-card" role="note">
          <p>{t('booking.form.travelersOnly')}</p>
        </div>
      ) : null}
      <div className="booking-layout">
        <BookingSummary guide={guide} current={current} people={people} total={total} />
        {days.length === 0 ? (
          <p className="empty card">{t('booking.form.noSlots')}</p>
        ) : (
          <Form
            method="post"
            action={`${location.pathname}${location.search}#${ERRORS_ID}`}
            className="form booking-form"
            {...formProps}
            onSubmit={onSubmit}
            onChange={(e) => setLive(readLive(e.currentTarget))}
          >
            <input type="hidden" name={FORM_KEY_FIELD} value={replyKey ?? formKey} />
            {conflict ? <p className="muted small">{t('booking.form.conflictHint')}</p> : null}
            <DayPicker
              days={days}
              openCount={(d) => slots.filter((s) => s.date === d && !s.held).length}
              shownDay={shownDay}
              hrefOf={dayHref}
              onPick={setPickedDay}
            />
            <SlotPicker field={slotField} days={days} slots={slots} shownDay={shownDay} />
            <Field field={fields.numberOfPeople} type="number" label={t('booking.form.people')} min={1} max={guide.maxGroupSize} inputMode="numeric" hint={t('booking.form.peopleHint', { count: guide.maxGroupSize })} />
            <TextareaField field={fields.note} label={t('booking.form.note')} hint={t('booking.form.noteHint')} rows={2} />
            <div className="field">
              <div className="terms-check">
                <input {...getInputProps(fields.termsAccepted, { type: 'checkbox' })} key={fields.termsAccepted.key} />
                <label htmlFor={termsId}>
                  <Trans i18nKey="booking.form.terms" components={{ terms: <Link to="/booking-terms" target="_blank" rel="noopener" /> }} />
                </label>
              </div>
              <ErrorList id={fields.termsAccepted.errorId} errors={fields.termsAccepted.errors} />
            </div>
            <p className="booking-total">
              <span className="label">{t('booking.form.total')}</span> <strong>{total}</strong>{' '}
              <span className="muted small">{t('booking.form.perGroup')}</span>
            </p>
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
    </div>
  );
}
