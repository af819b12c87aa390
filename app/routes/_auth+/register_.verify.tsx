import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { EmailCodeForm } from '~/components/email-code-form';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireAnonymous } from '~/http/session.server';
import { markFirstLogin } from '~/lib/first-login';
import { pageMeta } from '~/lib/meta';
import { safeRedirectPath } from '~/lib/safe-url';
import { redirectWithToast } from '~/http/toast.server';
import { emailField } from '~/schemas/field-rules';
import { codeCooldown, emailCodeAction } from '~/http/authenticator.server';
import { CODE_TTL_MINUTES } from '~/services/accounts/email-codes.server';
import { findUserByEmail } from '~/services/accounts/users.server';
import { forwardRetryAfter } from '~/http/forms.server';
import { readForm } from '~/http/page.server';

/**
 * /register/verify?email=… — the code-entry view after registration (SPEC §2 Email verification form).
 * The address lives in the URL, so a reload or a no-JS post keeps it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const q = new URL(request.url).searchParams;
  // Where the confirmed code leads (through /login-success), carried from /register: a same-site path only.
  const redirectTo = safeRedirectPath(q.get('redirectTo'), '');
  const carry = redirectTo ? `?${new URLSearchParams({ redirectTo })}` : '';
  const parsed = emailField.safeParse(q.get('email') ?? '');
  if (!parsed.success) throw redirect(`/register${carry}`);
  const email = parsed.data;
  const user = await findUserByEmail(email);
  if (user?.isEmailVerified) {
    throw await redirectWithToast(`/login${carry}`, { key: 'errors.codes.ALREADY_VERIFIED', type: 'info' });
  }
  const t = await getFixedT(request);
  return { email, redirectTo, cooldown: await codeCooldown(email), ttlMinutes: CODE_TTL_MINUTES, title: t('auth.code.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['auth'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

/** A 429 keeps its Retry-After on the page too. */
export const headers = forwardRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await readForm(request);
  // Whoever finishes registration here logs in for the first time: "welcome", not "welcome back".
  const before = formData.get('intent') === 'verify' ? await findUserByEmail(String(formData.get('email') ?? '')) : undefined;
  return markFirstLogin(await emailCodeAction(request, context, formData), Boolean(before && before.lastLogin === null));
}

export default function RegisterVerify() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation();
  const { redirectTo } = loaderData;
  return (
    <div className="auth-page">
      <EmailCodeForm
        // The loader runs again after every post, so its cooldown is the current one.
        data={{ ...loaderData, result: actionData?.result, resent: actionData && 'resent' in actionData ? actionData.resent === true : false }}
        // Both buttons post it; a confirmed code goes to /login-success?redirectTo=… (emailCodeAction).
        hidden={redirectTo ? { redirectTo } : undefined}
        back={redirectTo ? { to: `/register?${new URLSearchParams({ redirectTo })}`, label: t('auth.code.backToRegister') } : undefined}
      />
    </div>
  );
}
