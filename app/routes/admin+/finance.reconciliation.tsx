import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { readForm } from '~/http/page.server';
import { requireRole } from '~/http/session.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { runReconciliationSchema } from '~/schemas/admin-finance';
import { latestReconciliation, runReconciliationNow } from '~/services/payments/reconciliation.server';
import { FinanceNav } from './__finance-nav';

/**
 * /admin/finance/reconciliation (issue 32): the latest reconciliation run (the daily job's or an admin's) with its
 * mismatches, and "run now" (a plain POST; the service asks the provider, stores the run and audits it).
 * GET and POST /api/v1/admin/reconciliation are the same two calls.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const [t, run] = await Promise.all([getFixedT(request), latestReconciliation(user)]);
  return { title: t('admin.finance.reconciliation.title'), run };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['admin', 'trust'] };

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const submission = parseWithZod(await readForm(request), { schema: runReconciliationSchema });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  const run = await runReconciliationNow(user);
  return redirectWithToast('/admin/finance/reconciliation', {
    key: 'admin.finance.reconciliation.done',
    params: { count: run.mismatches.length },
    type: run.mismatches.length ? 'info' : 'success',
  });
}

export default function FinanceReconciliation() {
  const { run } = useLoaderData<typeof loader>();
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
