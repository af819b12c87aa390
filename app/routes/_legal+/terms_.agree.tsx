import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { TermsAgreement } from '~/components/terms-agreement';
import { requireUser } from '~/http/session.server';
import { replyWithError } from '~/http/forms.server';
import { readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { safeRedirectPath } from '~/lib/safe-url';
import { termsDeclinedClearCookie } from '~/lib/terms';
import { termsAgreeFormSchema } from '~/schemas/terms';
import { agreeToTerms, agreementStatus, currentTerms } from '~/services/accounts/terms.server';

/**
 * /terms/agree?redirectTo=… (issue 24): the terms modal as a page, for a logged-in user who must agree and has
 * no JS (root.tsx sends them here), and the form the modal posts. Agreeing returns to where they were.
 */
export const handle: I18nHandle = { i18n: ['terms'] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'));
  const locale = await getLocale(request);
  const [status, document, t] = await Promise.all([agreementStatus(user, locale), currentTerms(locale), getFixedT(request)]);
  if (!status.requiresAgreement) throw redirect(redirectTo);
  return { document: { id: document.id, title: document.title, content: document.content, version: document.version, locale: document.locale, untranslated: document.untranslated }, redirectTo, title: t('terms.page.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: termsAgreeFormSchema });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  try {
    await agreeToTerms(user, submission.value);
  } catch (error) {
    // The terms changed while they were being read (400): the answer says so; a reload shows the new text.
    return replyWithError(request, submission, error);
  }
  // Agreed after disagreeing earlier: the banner of /terms/disagree goes too.
  return redirectWithToast(safeRedirectPath(submission.value.redirectTo), { key: 'terms.done.agreed', type: 'success' }, { headers: { 'Set-Cookie': termsDeclinedClearCookie } });
}

export default function AgreePage() {
  const { document, redirectTo } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const problems = Object.values(answer?.result.error ?? {}).flat();
  return (
    <section className="terms-page" aria-labelledby="terms-page-title">
      <h1 id="terms-page-title">{t('terms.page.title')}</h1>
      <p className="muted">{t('terms.page.lead')}</p>
      <TermsAgreement
        document={document}
        redirectTo={redirectTo}
        headingId="terms-page-document"
        processing={navigation.state !== 'idle' && navigation.formAction === '/terms/agree'}
        error={problems.length ? problems.map((key) => t(key ?? '')).join(' ') : null}
      />
    </section>
  );
}
