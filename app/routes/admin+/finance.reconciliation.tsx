import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { attempt, replyWithError } from '~/http/forms.server';
import { readForm } from '~/http/page.server';
import { requireRole } from '~/http/session.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { resolveRefundSchema, runReconciliationSchema, type RefundInDoubtView } from '~/schemas/admin-finance';
import { latestReconciliation, runReconciliationNow } from '~/services/payments/reconciliation.server';
import { refundsInDoubt, resolveRefundInDoubt } from '~/services/payments/refund-attempts.server';
import { FinanceNav } from './__finance-nav';

/**
 * /admin/finance/reconciliation (issue 32): the latest reconciliation run (the daily job's or an admin's) with its
 * mismatches, and "run now" (a plain POST; the service asks the provider, stores the run and audits it); above them
 * the refunds in doubt, each settled by what the admin found at the provider (refund-attempts.server.ts).
 * /api/v1/admin/reconciliation and /api/v1/admin/refunds-in-doubt are the same calls.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const [t, run, inDoubt] = await Promise.all([getFixedT(request), latestReconciliation(user), refundsInDoubt(user)]);
  return { title: t('admin.finance.reconciliation.title'), run, inDoubt };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['admin', 'trust'] };

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const form = await readForm(request);
  if (form.get('intent') === 'resolve-refund') {
    const resolution = parseWithZod(form, { schema: resolveRefundSchema });
    if (resolution.status !== 'success') return data({ result: resolution.reply() }, { status: 400 });
    const settled = await attempt(() => resolveRefundInDoubt(user, resolution.value));
    if (!settled.ok) return replyWithError(request, resolution, settled.error);
    return redirectWithToast('/admin/finance/reconciliation', { key: `admin.finance.inDoubt.done.${resolution.value.outcome}`, type: 'success' });
  }
  const submission = parseWithZod(form, { schema: runReconciliationSchema });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  const run = await runReconciliationNow(user);
  return redirectWithToast('/admin/finance/reconciliation', {
    key: 'admin.finance.reconciliation.done',
    params: { count: run.mismatches.length },
    type: run.mismatches.length ? 'info' : 'success',
  });
}

export default function FinanceReconciliation() {
  const { run, inDoubt } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as { result?: { error?: Record<string, string[] | null> } } | undefined;
  const refusal = answer?.result?.error?.['']?.[0];
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const ntd = (n: number) => formatNtd(n, lang);
  const busy = navigation.state === 'submitting';
  return (
    <div className="admin-page">
      <AdminPageHead title={t('admin.finance.reconciliation.title')} intro={t('admin.finance.reconciliation.intro')} back={{ to: '/admin/finance', label: t('admin.finance.title') }} />
      <FinanceNav current="reconciliation" />
      <Form method="post" className="admin-actions">
        <button type="submit" name="intent" value="run" className="button" disabled={busy} data-testid="run-reconciliation">
          {busy ? t('admin.working') : t('admin.finance.reconciliation.run')}
        </button>
      </Form>
      {refusal ? (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      ) : null}
      {inDoubt.length > 0 ? <RefundsInDoubt refunds={inDoubt} busy={busy} /> : null}
      <section className="card" aria-labelledby="reconciliation-latest">
        <h2 id="reconciliation-latest">{t('admin.finance.reconciliation.latest')}</h2>
        {!run ? (
          <p className="muted" data-testid="reconciliation-none">
            {t('admin.finance.reconciliation.none')}
          </p>
        ) : (
          <>
            <dl className="stat-list" data-testid="reconciliation-run">
              <div>
                <dt>{t('admin.finance.reconciliation.ranAt')}</dt>
                <dd>{formatTaipeiDateTime(run.ranAt, lang)}</dd>
              </div>
              <div>
                <dt>{t('admin.finance.reconciliation.ranBy')}</dt>
                <dd>
                  {run.actorId ? (
                    <Link to={`/admin/users/${run.actorId}`}>{t('admin.finance.reconciliation.admin', { id: run.actorId })}</Link>
                  ) : (
                    t('admin.finance.reconciliation.system')
                  )}
                </dd>
              </div>
              <div>
                <dt>{t('admin.finance.reconciliation.period')}</dt>
                <dd>{t('admin.finance.reconciliation.periodValue', { from: formatTaipeiDateTime(run.since, lang), to: formatTaipeiDateTime(run.ranAt, lang) })}</dd>
              </div>
              <div>
                <dt>{t('admin.finance.reconciliation.checked')}</dt>
                <dd data-testid="reconciliation-checked">{run.checked}</dd>
              </div>
              <div>
                <dt>{t('admin.finance.reconciliation.unreachable')}</dt>
                <dd data-testid="reconciliation-unreachable">{run.unreachable}</dd>
              </div>
              <div>
                <dt>{t('admin.finance.reconciliation.mismatches')}</dt>
                <dd data-testid="reconciliation-mismatch-count">{run.mismatches.length}</dd>
              </div>
            </dl>
            {run.unreachable > 0 ? (
              <p className="form-error" role="status">
                {t('admin.finance.reconciliation.unreachableNote', { count: run.unreachable })}
              </p>
            ) : null}
          </>
        )}
      </section>
      {run ? (
        <section className="card" aria-labelledby="reconciliation-mismatches">
          <h2 id="reconciliation-mismatches">{t('admin.finance.reconciliation.mismatches')}</h2>
          {run.mismatches.length === 0 ? (
            <p className="muted" data-testid="reconciliation-clean">
              {t('admin.finance.reconciliation.noMismatches')}
            </p>
          ) : (
            <ul className="finance-mismatches" data-testid="reconciliation-mismatches">
              {run.mismatches.map((m, i) => (
                <li key={`${m.paymentId}-${m.kind}-${i}`}>
                  <p className="finance-mismatch-kind">{t(`admin.finance.reconciliation.kinds.${m.kind}`)}</p>
                  <dl className="stat-list">
                    <div>
                      <dt>{t('admin.finance.reconciliation.payment')}</dt>
                      <dd>
                        <Link to={`/admin/orders/${m.orderId}`}>#{m.orderId}</Link> · <span className="finance-ref">{m.merchantTradeNo}</span>
                      </dd>
                    </div>
                    <div>
                      <dt>{t('admin.finance.reconciliation.ours')}</dt>
                      <dd>
                        {t('admin.finance.reconciliation.oursValue', {
                          status: t(`admin.finance.paymentStatus.${m.ours.status}`),
                          amount: ntd(m.ours.amount),
                          captured: ntd(m.ours.captured),
                          refunded: ntd(m.ours.refunded),
                        })}
                      </dd>
                    </div>
                    <div>
                      <dt>{t('admin.finance.reconciliation.theirs')}</dt>
                      <dd>
                        {m.provider
                          ? t('admin.finance.reconciliation.theirsValue', { status: t(`admin.finance.reconciliation.providerStatus.${m.provider.status}`), amount: ntd(m.provider.amount) })
                          : '—'}
                      </dd>
                    </div>
                    <div>
                      <dt>{t('admin.finance.reconciliation.ledger')}</dt>
                      <dd>
                        {m.ledger
                          ? t('admin.finance.reconciliation.ledgerValue', { authorised: ntd(m.ledger.authorisedOpen), captured: ntd(m.ledger.captured), refunded: ntd(m.ledger.refunded) })
                          : '—'}
                      </dd>
                    </div>
                  </dl>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </div>
  );
}

/** Refunds whose answer was lost: what to check at the provider, and one form per refund to say what was found. */
function RefundsInDoubt({ refunds, busy }: { refunds: RefundInDoubtView[]; busy: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <section className="card" aria-labelledby="refunds-in-doubt">
      <h2 id="refunds-in-doubt">{t('admin.finance.inDoubt.title')}</h2>
      <p className="form-error">{t('admin.finance.inDoubt.intro')}</p>
      <ul className="finance-mismatches" data-testid="refunds-in-doubt">
        {refunds.map((r) => (
          <li key={r.key}>
            <dl className="stat-list">
              <div>
                <dt>{t('admin.finance.reconciliation.payment')}</dt>
                <dd>
                  <Link to={`/admin/orders/${r.orderId}`}>#{r.orderId}</Link> · <span className="finance-ref">{r.merchantTradeNo}</span>
                  {r.providerTradeNo ? <> · <span className="finance-ref">{r.providerTradeNo}</span></> : null}
                </dd>
              </div>
              <div>
                <dt>{t('admin.finance.inDoubt.amount')}</dt>
                <dd>{formatNtd(r.amount, lang)}</dd>
              </div>
              <div>
                <dt>{t('admin.finance.inDoubt.sentAt')}</dt>
                <dd>{formatTaipeiDateTime(r.startedAt, lang)}</dd>
              </div>
            </dl>
            <Form method="post" className="admin-actions">
              <input type="hidden" name="intent" value="resolve-refund" />
              <input type="hidden" name="key" value={r.key} />
              <button type="submit" name="outcome" value="refunded" className="button" disabled={busy}>
                {t('admin.finance.inDoubt.refunded')}
              </button>
              <button type="submit" name="outcome" value="not_refunded" className="button button-secondary" disabled={busy}>
                {t('admin.finance.inDoubt.notRefunded')}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
