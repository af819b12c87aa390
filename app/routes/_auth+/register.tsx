import {
  getCollectionProps,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type Submission,
} from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { GuideProfileFields } from '~/components/guide-profile-fields';
import { useHydrated } from '~/components/hydrated';
import { PasswordInput } from '~/components/password-input';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { clientIp, requireAnonymous } from '~/http/auth.server';
import { CITY_CODES } from '~/lib/cities';
import { replyWithError, forwardRetryAfter } from '~/http/forms.server';
import { LANGUAGE_CODES } from '~/lib/languages';
import { pageMeta } from '~/lib/meta';
import { registerSchema } from '~/schemas/auth';
import { register } from '~/services/auth.server';
import { AppError } from '~/services/errors.server';

type AccountType = 'traveler' | 'guide';

/** Every field either kind of account may send (the schema is a union on `type`). */
interface RegisterFields {
  type: AccountType;
  name: string;
  email: string;
  password: string;
  city: string;
  language: string[];
  price: number;
  description: string;
  website: string;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const type: AccountType = new URL(request.url).searchParams.get('type') === 'guide' ? 'guide' : 'traveler';
  const t = await getFixedT(request);
  return { type, title: t('auth.register.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['auth'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

/** A 429 keeps its Retry-After on the page too. */
export const headers = forwardRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: registerSchema });
  // The password is never echoed back into the page.
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 });
  }
  try {
    const user = await register(submission.value, { ip: clientIp(context), locale: await getLocale(request) });
    // The code-entry view has its own URL, so a reload (or JS off) keeps the address.
    return redirect(`/register/verify?${new URLSearchParams({ email: user.email })}`);
  } catch (error) {
    if (error instanceof AppError && error.code === 'EMAIL_TAKEN') {
      return replyWithError(request, submission, error, { hideFields: ['password'] });
    }
    if (!(error instanceof AppError)) console.error('register failed', error);
    const failed = new AppError(error instanceof AppError ? error.code : 'SERVER_ERROR', { messageKey: 'auth.register.failed' });
    return replyWithError(request, submission, failed, { hideFields: ['password'] });
  }
}

export default function Register() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const [form, fields] = useForm<RegisterFields>({
    id: 'register',
    lastResult: actionData?.result,
    defaultValue: { type: loaderData.type },
    // Fields of one branch only (the guide's) get no `required` attribute from conform's v4 entry, which
    // matters: they are in the page for travelers too (hidden, see below). The schema still requires them
    // of a guide, here (with JS) and on the server.
    constraint: getZodConstraint(registerSchema),
    // Not on blur: an error appearing as a field loses focus moves the button under a pressing finger.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    // The union's halves are typed apart; the form works on the flattened field list.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: registerSchema }) as unknown as Submission<RegisterFields>,
  });
  const hydrated = useHydrated();
  const type: AccountType = fields.type.value === 'guide' ? 'guide' : 'traveler';
  // A refused submit keeps every value but the password (without JS the server leaves it out of the page).
  useEffect(() => {
    if (!actionData?.result?.error) return;
    const input = document.getElementById(fields.password.id);
    if (input instanceof HTMLInputElement) input.value = '';
  }, [actionData, fields.password.id]);
  const submitting = navigation.state === 'submitting' && navigation.formAction?.startsWith('/register');

  const error = (field: { errors?: string[]; errorId: string }) =>
    field.errors ? (
      <p className="field-error" id={field.errorId}>
        {field.errors.map((e) => t(e)).join(' ')}
      </p>
    ) : null;
  const { key: passwordKey, ...passwordProps } = getInputProps(fields.password, { type: 'password' });
  const typeOptions = getCollectionProps(fields.type, { type: 'radio', options: ['traveler', 'guide'] });

  return (
    <section className="auth-page" aria-labelledby="register-title">
      <div className="card auth-card">
        <h1 id="register-title">{t('auth.register.heading')}</h1>
        <p className="muted">{t('auth.register.intro')}</p>
        <Form method="post" className="form register-form" {...getFormProps(form)}>
          <fieldset className="account-type" aria-describedby={fields.type.errors ? fields.type.errorId : undefined}>
            <legend>{t('auth.register.typeLegend')}</legend>
            <div className="account-type-options">
              {typeOptions.map(({ key, ...props }) => (
                <label key={key} className="account-type-option">
                  <input {...props} />
                  <span>
                    <strong>{t(`auth.register.${props.value}`)}</strong>
                    <span className="small muted">{t(`auth.register.${props.value}Hint`)}</span>
                  </span>
                </label>
              ))}
            </div>
            {error(fields.type)}
          </fieldset>

          <div className="field">
            <label htmlFor={fields.name.id}>{t('auth.register.name')}</label>
            <input {...getInputProps(fields.name, { type: 'text' })} key={fields.name.key} autoComplete="name" />
            {error(fields.name)}
          </div>
          <div className="field">
            <label htmlFor={fields.email.id}>{t('auth.register.email')}</label>
            <input
              {...getInputProps(fields.email, { type: 'email' })}
              key={fields.email.key}
              autoComplete="email"
              autoCapitalize="none"
              spellCheck={false}
            />
            {error(fields.email)}
          </div>
          <div className="field">
            <label htmlFor={fields.password.id}>{t('auth.register.password')}</label>
            <PasswordInput
              key={passwordKey}
              {...passwordProps}
              autoComplete="new-password"
              aria-describedby={[passwordProps['aria-describedby'], `${fields.password.id}-hint`].filter(Boolean).join(' ')}
            />
            <p className="field-hint" id={`${fields.password.id}-hint`}>
              {t('auth.register.passwordHint')}
            </p>
            {error(fields.password)}
          </div>

          {/* Always in the page, so choosing 導遊 needs no script: CSS shows these fields while the guide
              radio is checked (auth.css, :has), and with JS a traveler's copy is also disabled, so it is
              neither checked nor sent. Without :has they stay visible and a traveler's entries are ignored. */}
          <fieldset className="register-guide" disabled={hydrated && type !== 'guide'}>
            <GuideProfileFields fields={fields} legend={t('auth.register.guideSection')} className="guide-fields" renderError={error} />
          </fieldset>

          <input className="hp-field" name="website" type="text" tabIndex={-1} autoComplete="off" aria-hidden="true" defaultValue="" />

          {form.errors ? (
            <p className="form-error" id={form.errorId} role="alert">
              {form.errors.map((e) => t(e)).join(' ')}
            </p>
          ) : null}
          {fields.website.errors ? (
            <p className="form-error" role="alert">
              {t('auth.register.failed')}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="button button-large auth-submit" disabled={submitting}>
              {submitting ? t('auth.register.submitting') : t('auth.register.submit')}
            </button>
          </div>
        </Form>
        <p className="auth-switch">
          {t('auth.register.haveAccount')} <Link to="/login">{t('auth.register.loginLink')}</Link>
        </p>
      </div>
    </section>
  );
}
