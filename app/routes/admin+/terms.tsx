import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { requireRole } from '~/http/session.server';
import { replyWithError } from '~/http/forms.server';
import { readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { isLocale, LOCALE_NAMES, SUPPORTED_LOCALES, type Locale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { draftFingerprint, TERMS_KINDS, type TermsKind } from '~/lib/terms';
import { publishAllTermsSchema, publishTermsSchema } from '~/schemas/terms';
import { listTermsVersions, publishTerms, publishTermsInEveryLanguage, readersAskedAgain, termsStartingPoint } from '~/services/accounts/terms.server';
import { PreviewAndConfirm, PublishAllForm, PublishForm, StartChooser, type Preview } from './__terms-publish';

/**
 * /admin/terms (issues 22, 35): the terms, privacy policy and booking terms in each language as versions. A new
 * version of one kind and language starts from its current text, is previewed as users will see it and is
 * published only once confirmed (the confirmation names the previewed draft and says who will be asked to agree
 * again): it becomes the active one of its kind and language, audited in the same transaction.
 */
export const handle: I18nHandle = { i18n: ['terms', 'account', 'trust'] };

/** What the admin chose to change: a kind, and one language or the three at once. */
function chosen(url: URL): { kind: TermsKind; locale: Locale | 'all' } {
  const kind = url.searchParams.get('kind');
  const locale = url.searchParams.get('locale');
  return { kind: (TERMS_KINDS as readonly string[]).includes(kind ?? '') ? (kind as TermsKind) : 'terms', locale: locale === 'all' || isLocale(locale) ? locale : 'zh-TW' };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin');
  const { kind, locale } = chosen(new URL(request.url));
  const languages = locale === 'all' ? SUPPORTED_LOCALES : [locale];
  const [versions, starts, t] = await Promise.all([listTermsVersions(), Promise.all(languages.map((l) => termsStartingPoint(kind, l))), getFixedT(request)]);
  return { versions, kind, locale, starts, title: t('terms.admin.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const formData = await readForm(request);
  const all = formData.get('locale') === 'all';
  const submission = all ? parseWithZod(formData, { schema: publishAllTermsSchema }) : parseWithZod(formData, { schema: publishTermsSchema });
  if (submission.status !== 'success') return data({ result: submission.reply(), preview: null }, { status: 400 });
  const draft = submission.value;
  const texts = 'texts' in draft ? draft.texts : [{ locale: draft.locale, title: draft.title, content: draft.content }];
  const fingerprint = draftFingerprint({ ...draft, title: texts.map((x) => x.title).join('\u0001'), content: texts.map((x) => `${x.locale}\u0002${x.content}`).join('\u0001') });
  // Published only when confirmed after a preview of this very draft; otherwise (or changed since) a preview.
  if (formData.get('intent') !== 'publish' || formData.get('confirmed') !== fingerprint) {
    const preview: Preview = { kind: draft.kind, version: draft.version, locale: draft.locale, texts, fingerprint, askedAgain: await readersAskedAgain(draft.kind, draft.locale) };
    return data({ result: submission.reply(), preview });
  }
  try {
    if ('texts' in draft) await publishTermsInEveryLanguage(user, draft);
    else await publishTerms(user, draft);
  } catch (error) {
    return replyWithError(request, submission, error);
  }
  const t = await getFixedT(request);
  return redirectWithToast(`/admin/terms?kind=${draft.kind}&locale=${draft.locale}`, {
    key: 'terms.admin.published',
    type: 'success',
    params: { kind: t(`terms.admin.kind.${draft.kind}`), version: draft.version },
  });
}

export default function AdminTerms() {
  const { versions, kind, locale, starts } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const preview = answer && 'preview' in answer ? answer.preview : null;
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const active = versions.filter((v) => v.isActive);
  return (
    <div className="admin-page admin-terms">
      <AdminPageHead title={t('terms.admin.title')} intro={t('terms.admin.lead')} />

      <h2>{t('terms.admin.active')}</h2>
      <div className="card admin-table-wrap">
        <table className="admin-table terms-table">
          <thead>
            <tr>
              <th scope="col">{t('terms.admin.kindLabel')}</th>
              {SUPPORTED_LOCALES.map((locale) => (
                <th key={locale} scope="col" lang={locale}>
                  {LOCALE_NAMES[locale]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {TERMS_KINDS.map((kind) => (
              <tr key={kind}>
                <th scope="row">{t(`terms.admin.kind.${kind}`)}</th>
                {SUPPORTED_LOCALES.map((locale) => {
                  const row = active.find((v) => v.kind === kind && v.locale === locale);
                  return (
                    <td key={locale} data-label={LOCALE_NAMES[locale]}>
                      {row ? `${row.version} · ${row.title}` : t('terms.admin.none')}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>{t('terms.admin.newVersion')}</h2>
      <StartChooser key={`${kind}-${locale}`} kind={kind} locale={locale} />
      {locale === 'all' ? (
        <PublishAllForm key={`${kind}:all`} starts={starts} lastResult={answer?.result} busy={busy} />
      ) : (
        <PublishForm key={`${kind}:${locale}`} start={starts[0]!} lastResult={answer?.result} busy={busy} />
      )}
      {preview ? <PreviewAndConfirm preview={preview} busy={busy} /> : null}

      <h2>{t('terms.admin.history')}</h2>
      <div className="card admin-table-wrap">
        <table className="admin-table terms-table">
          <thead>
            <tr>
              <th scope="col">{t('terms.admin.kindLabel')}</th>
              <th scope="col">{t('terms.admin.locale')}</th>
              <th scope="col">{t('terms.admin.version')}</th>
              <th scope="col">{t('terms.admin.titleField')}</th>
              <th scope="col">{t('terms.admin.createdAt')}</th>
              <th scope="col">{t('terms.admin.agreements')}</th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr key={v.id} data-testid="terms-version">
                <td data-label={t('terms.admin.kindLabel')}>{t(`terms.admin.kind.${v.kind}`)}</td>
                <td data-label={t('terms.admin.locale')}>{LOCALE_NAMES[v.locale]}</td>
                <td data-label={t('terms.admin.version')}>
                  {v.version}
                  {v.isActive ? ` (${t('terms.admin.active')})` : ''}
                </td>
                <td data-label={t('terms.admin.titleField')}>{v.title}</td>
                <td data-label={t('terms.admin.createdAt')}>{formatTaipeiDateTime(v.createdAt, i18n.language)}</td>
                <td data-label={t('terms.admin.agreements')}>{v.kind === 'terms' ? v.agreements : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
