import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { EmailCodeForm } from '~/components/email-code-form';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireAnonymous } from '~/http/auth.server';
import { markFirstLogin } from '~/lib/first-login';
import { pageMeta } from '~/lib/meta';
import { redirectWithToast } from '~/http/toast.server';
import { emailField } from '~/schemas/fields';
import { codeCooldown, emailCodeAction } from '~/http/authenticator.server';
import { CODE_TTL_MINUTES } from '~/services/email-codes.server';
import { findUserByEmail } from '~/services/users.server';
import { forwardRetryAfter } from '~/http/forms.server';

/**
 * /register/verify?email=… — the code-entry view after registration (SPEC §2 Email verification form).
 * The address lives in the URL, so a reload or a no-JS post keeps it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const parsed = emailField.safeParse(new URL(request.url).searchParams.get('email') ?? '');
  if (!parsed.success) throw redirect('/register');
  const email = parsed.data;
  const user = await findUserByEmail(email);
  if (user?.isEmailVerified) {
    throw await redirectWithToast('/login', { key: 'errors.codes.ALREADY_VERIFIED', type: 'info' });
  }
  const t = await getFixedT(request);
  return { email, cooldown: await codeCooldown(email), ttlMinutes: CODE_TTL_MINUTES, title: t('auth.code.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['auth'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

/** A 429 keeps its Retry-After on the page too. */
export const headers = forwardRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await request.formData();
  // Whoever finishes registration here logs in for the first time: "welcome", not "welcome back".
  const before = formData.get('intent') === 'verify' ? await findUserByEmail(String(formData.get('email') ?? '')) : undefined;
  return markFirstLogin(await emailCodeAction(request, context, formData), Boolean(before && before.lastLogin === null));
}

export default function RegisterVerify() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="auth-page">
      <EmailCodeForm
        // The loader runs again after every post, so its cooldown is the current one.
        data={{ ...loaderData, result: actionData?.result, resent: actionData && 'resent' in actionData ? actionData.resent === true : false }}
      />
    </div>
  );
}
