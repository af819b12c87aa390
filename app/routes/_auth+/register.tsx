import { getFormProps, getInputProps } from '@conform-to/react';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { GuideProfileFields } from '~/components/guide-profile-fields';
import { useHydrated } from '~/components/hydrated';
import { ChoiceGroup, Field, Honeypot, SubmitButton } from '~/components/forms/form-fields';
import { ErrorList, FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { clientIp, requireAnonymous } from '~/http/session.server';
import { attempt, forwardRetryAfter, parseForm, replyWithError, type Outcome } from '~/http/forms.server';
import { readForm } from '~/http/page.server';
import { pageMeta } from '~/lib/meta';
import { safeRedirectPath } from '~/lib/safe-url';
import { registerFormSchema } from '~/schemas/account-forms';
import { register } from '~/services/accounts/accounts.server';
import { currentTermsVersion } from '~/services/accounts/terms.server';
import { AppError } from '~/services/platform/errors.server';
import { logError } from '~/services/platform/log.server';
import { DEFAULT_MAX_GROUP_SIZE } from '~/lib/group-size';
import { SIGN_UP_ACCOUNT_TYPES, type SignUpAccountType } from '~/lib/account-types';


/** Every field either kind of account may send (the schema is a union on `type`). */
interface RegisterFields {
  type: SignUpAccountType;
  name: string;
  email: string;
  password: string;
  city: string;
  language: string[];
  price: number;
  maxGroupSize: number;
  description: string;
  website: string;
  agreeToTerms: string;
  termsVersion: string;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const q = new URL(request.url).searchParams;
  const type: SignUpAccountType = q.get('type') === 'guide' ? 'guide' : 'traveler';
  // Where to land once the code is confirmed (e.g. a booking form with its choice): a same-site path only.
  const redirectTo = safeRedirectPath(q.get('redirectTo'), '');
  const [t, termsVersion] = await Promise.all([getFixedT(request), currentTermsVersion(await getLocale(request))]);
  return { type, redirectTo, termsVersion, title: t('auth.register.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['auth', 'search'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

/** A 429 keeps its Retry-After on the page too. */
export const headers = forwardRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await readForm(request);
  // The password is never echoed back into the page.
  const parsed = parseForm(formData, registerFormSchema, { hideFields: ['password'] });
  if (!parsed.ok) return parsed.reply;
  let registered: Outcome<Awaited<ReturnType<typeof register>>>;
  try {
    registered = await attempt(async () => register(parsed.value, { ip: clientIp(context), locale: await getLocale(request) }));
  } catch (error) {
    // Anything unexpected reads as the generic failure on the form, not the 500 page.
    logError('register failed', error, { requestId: context.requestId });
    return replyWithError(request, parsed.submission, new AppError('SERVER_ERROR', { messageKey: 'auth.register.failed' }), { hideFields: ['password'] });
  }
  if (!registered.ok) {
    const { error } = registered;
    const shown = error.code === 'EMAIL_TAKEN' ? error : new AppError(error.code, { messageKey: 'auth.register.failed' });
    return replyWithError(request, parsed.submission, shown, { hideFields: ['password'] });
  }
  // The code-entry view has its own URL, so a reload (or JS off) keeps the address (and where to go next).
  const redirectTo = safeRedirectPath(formData.get('redirectTo'), '');
  return redirect(`/register/verify?${new URLSearchParams({ email: registered.value.email, ...(redirectTo ? { redirectTo } : {}) })}`);
}

export default function Register() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  // Fields of one branch only (the guide's) get no `required` attribute from conform's v4 entry, which
  // matters: they are in the page for travelers too (hidden, see below). The schema still requires them
  // of a guide, here (with JS) and on the server.
  const [form, fields] = useSchemaForm<RegisterFields>({
    id: 'register',
    schema: registerFormSchema,
    lastResult: actionData?.result,
    defaultValue: { type: loaderData.type, maxGroupSize: DEFAULT_MAX_GROUP_SIZE },
  });
  const hydrated = useHydrated();
  const type: SignUpAccountType = fields.type.value === 'guide' ? 'guide' : 'traveler';
  // A refused submit keeps every value but the password (without JS the server leaves it out of the page).
  useEffect(() => {
    if (!actionData?.result?.error) return;
    const input = document.getElementById(fields.password.id);
    if (input instanceof HTMLInputElement) input.value = '';
  }, [actionData, fields.password.id]);
  const submitting = navigation.state === 'submitting' && navigation.formAction?.startsWith('/register');


  return (
    <section className="auth-page" aria-labelledby="register-title">
      <div className="card auth-card">
        <h1 id="register-title">{t('auth.register.heading')}</h1>
        <p className="muted">{t('auth.register.intro')}</p>
        <Form method="post" className="form register-form" {...getFormProps(form)}>
          {loaderData.redirectTo ? <input type="hidden" name="redirectTo" value={loaderData.redirectTo} /> : null}
          <ChoiceGroup
            field={fields.type}
            type="radio"
            legend={t('auth.register.typeLegend')}
            className="account-type"
            legendClassName=""
            optionsClassName="account-type-options"
            optionClassName="account-type-option"
            options={SIGN_UP_ACCOUNT_TYPES.map((value) => ({
              value,
              label: t(`auth.register.${value}`),
              hint: t(`auth.register.${value}Hint`),
            }))}
          />
          <Field field={fields.name} label={t('auth.register.name')} autoComplete="name" />
          <Field
            field={fields.email}
            type="email"
            label={t('auth.register.email')}
            autoComplete="email"
          />
          <Field
            field={fields.password}
            type="password"
            label={t('auth.register.password')}
            hint={t('auth.register.passwordHint')}
            autoComplete="new-password"
          />

          {/* Always in the page, so choosing 導遊 needs no script: CSS shows these fields while the guide
              radio is checked (auth.css, :has), and with JS a traveler's copy is also disabled, so it is
              neither checked nor sent. Without :has they stay visible and a traveler's entries are ignored. */}
          <fieldset className="register-guide" disabled={hydrated && type !== 'guide'}>
            <GuideProfileFields fields={fields} legend={t('auth.register.guideSection')} className="guide-fields" />
          </fieldset>

          {/* Ticking it records agreement to the terms version shown (issue 24): the terms modal then does not ask. */}
          <input type="hidden" name={fields.termsVersion.name} value={loaderData.termsVersion} />
          <div className="field">
            <div className="register-terms">
              <input {...getInputProps(fields.agreeToTerms, { type: 'checkbox' })} key={fields.agreeToTerms.key} aria-required="true" />
              <label htmlFor={fields.agreeToTerms.id}>
                <Trans
                  i18nKey="auth.register.terms"
                  components={{ terms: <Link to="/terms" target="_blank" rel="noopener" />, privacy: <Link to="/privacy-policy" target="_blank" rel="noopener" /> }}
                />
              </label>
            </div>
            <ErrorList id={fields.agreeToTerms.errorId} errors={fields.agreeToTerms.errors} />
          </div>

          <Honeypot field={fields.website} refusal={t('auth.register.failed')} />
          <FormErrors form={form} />
          <div className="form-actions">
            <SubmitButton
              busy={submitting}
              className="button button-large auth-submit"
              label={t('auth.register.submit')}
              busyLabel={t('auth.register.submitting')}
            />
          </div>
        </Form>
        <p className="auth-switch">
          {t('auth.register.haveAccount')} <Link to={loaderData.redirectTo ? `/login?${new URLSearchParams({ redirectTo: loaderData.redirectTo })}` : '/login'}>
            {t('auth.register.loginLink')}
          </Link>
        </p>
      </div>
    </section>
  );
}
