import { limitLog } from '~/http/request-context.server';
import { getFormProps } from '@conform-to/react';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field, Honeypot, SubmitButton } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { clientIp } from '~/http/session.server';
import { forwardRetryAfter, submitForm } from '~/http/forms.server';
import { readForm } from '~/http/page.server';
import { pageMeta } from '~/lib/meta';
import { forgotPasswordSchema } from '~/schemas/account-forms';
import { emailField } from '~/schemas/field-rules';
import { requestPasswordReset } from '~/services/accounts/password-reset.server';

/**
 * Forgot password, step 1 (issue 7): the person enters their email; a reset code is mailed when the address
 * belongs to an account, and every address gets the same answer: on to step 2 (/reset-password?email=…),
 * whose text says a code was sent if the address has an account. A second request within the minute also
 * goes on to step 2 (the earlier code is still valid), so the answer never tells who has an account.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request);
  // ?email= prefills the field (a link from the code page); anything that is not an address is ignored.
  const parsed = emailField.safeParse(new URL(request.url).searchParams.get('email') ?? '');
  return { email: parsed.success ? parsed.data : '', title: t('auth.forgot.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['auth'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const headers = forwardRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const codeEntry = (email: string) => redirect(`/reset-password?${new URLSearchParams({ email })}`);
  return submitForm(
    request,
    formData,
    forgotPasswordSchema,
    async ({ email }) => {
      await requestPasswordReset(email, { ip: clientIp(context), limits: limitLog(request), requestId: context.requestId });
      return codeEntry(email);
    },
    // Same for every address: the code asked for a moment ago is still valid.
    { explain: (error, { email }) => (error.code === 'RESEND_COOLDOWN' ? codeEntry(email) : error) },
  );
}

export default function ForgotPassword() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm<{ email: string; website: string }>({
    id: 'forgot-password',
    schema: forgotPasswordSchema,
    lastResult: actionData?.result,
    defaultValue: { email },
  });
  const submitting = navigation.state === 'submitting' && navigation.formAction?.startsWith('/forgot-password');

  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="forgot-title">
        <h1 id="forgot-title">{t('auth.forgot.heading')}</h1>
        <p>{t('auth.forgot.intro')}</p>
        <Form method="post" className="form" {...getFormProps(form)}>
          <Field
            field={fields.email}
            type="email"
            label={t('auth.forgot.email')}
            autoComplete="username"
          />
          <Honeypot field={fields.website} refusal={t('auth.forgot.failed')} />
          <FormErrors form={form} />
          <div className="form-actions">
            <SubmitButton
              busy={submitting}
              className="button button-large auth-submit"
              label={t('auth.forgot.submit')}
              busyLabel={t('auth.forgot.submitting')}
            />
          </div>
        </Form>
        <p className="auth-switch">
          <Link to="/login">{t('auth.forgot.backToLogin')}</Link>
        </p>
      </section>
    </div>
  );
}
