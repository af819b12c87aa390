import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { GuideProfileFields } from '~/components/guide-profile-fields';
import { useHydrated } from '~/components/hydrated';
import { ChoiceGroup, Field, Honeypot, SubmitButton } from '~/components/forms/fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { clientIp, requireAnonymous } from '~/http/auth.server';
import { replyWithError, forwardRetryAfter } from '~/http/forms.server';
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
  // Fields of one branch only (the guide's) get no `required` attribute from conform's v4 entry, which
  // matters: they are in the page for travelers too (hidden, see below). The schema still requires them
  // of a guide, here (with JS) and on the server.
  const [form, fields] = useSchemaForm<RegisterFields>({
    id: 'register',
    schema: registerSchema,
    lastResult: actionData?.result,
    defaultValue: { type: loaderData.type },
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


  return (
    <section className="auth-page" aria-labelledby="register-title">
      <div className="card auth-card">
        <h1 id="register-title">{t('auth.register.heading')}</h1>
        <p className="muted">{t('auth.register.intro')}</p>
        <Form method="post" className="form register-form" {...getFormProps(form)}>
          <ChoiceGroup
            field={fields.type}
            type="radio"
            legend={t('auth.register.typeLegend')}
            className="account-type"
            legendClassName=""
            optionsClassName="account-type-options"
            optionClassName="account-type-option"
            options={(['traveler', 'guide'] as const).map((value) => ({
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
          {t('auth.register.haveAccount')} <Link to="/login">{t('auth.register.loginLink')}</Link>
        </p>
      </div>
    </section>
  );
}
