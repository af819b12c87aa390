import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { apiCatalogue } from '~/http/api-catalogue.server';
import { API_METHODS, type ApiMethod } from '~/http/contract';
import { requireDebugAccess } from '~/http/debug.server';
import { readForm } from '~/http/page.server';
import { pageMeta } from '~/lib/meta';

/**
 * /api-test — debug page (SPEC §2): pick any API call of this server (from the route contracts), send it with
 * the visitor's own login, and read the raw status, headers and body. The server makes the call, to its own
 * origin only (the path must start with /api/), so it works the same without JS. Who may open it:
 * requireDebugAccess (docs/decisions/030-debug-routes.md).
 */
const DEFAULT_CALL = 'GET /api/v1/guides';
const BODY_LIMIT = 64 * 1024;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireDebugAccess(request);
  const t = await getFixedT(request);
  return { calls: apiCatalogue().map((c) => ({ value: `${c.method} ${c.path}`, summary: c.summary })), title: t('debug.api.title') };
}

interface Values {
  call: string;
  path: string;
  body: string;
}

export async function action({ request }: ActionFunctionArgs) {
  await requireDebugAccess(request);
  const t = await getFixedT(request);
  const form = await readForm(request);
  const values: Values = { call: String(form.get('call') ?? DEFAULT_CALL), path: String(form.get('path') ?? '').trim(), body: String(form.get('body') ?? '') };
  const [rawMethod, callPath = ''] = values.call.split(' ');
  const method = (API_METHODS as readonly string[]).includes(rawMethod ?? '') ? (rawMethod as ApiMethod) : 'GET';
  const path = values.path || callPath;
  const refuse = (error: string) => data({ values, error, result: undefined }, { status: 400 });
  if (!path.startsWith('/api/')) return refuse(t('debug.api.badPath'));
  if (/[{}]/.test(path)) return refuse(t('debug.api.pathParams'));
  const origin = new URL(request.url).origin;
  const target = new URL(path, origin);
  // Only this server: a path cannot name another host.
  if (target.origin !== origin || !target.pathname.startsWith('/api/')) return refuse(t('debug.api.badPath'));
  const sendsBody = method !== 'GET' && method !== 'DELETE' && values.body.trim() !== '';
  if (sendsBody) {
    try {
      JSON.parse(values.body);
    } catch {
      return refuse(t('debug.api.badBody'));
    }
  }
  const headers = new Headers({ Origin: origin, Accept: 'application/json' });
  for (const name of ['cookie', 'accept-language', 'user-agent']) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (sendsBody) headers.set('Content-Type', 'application/json');
  const started = performance.now();
  try {
    const response = await fetch(target, { method, headers, body: sendsBody ? values.body : undefined, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    const text = await response.text();
    let body = text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}\n…` : text;
    try {
      if (text.length <= BODY_LIMIT) body = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      /* not JSON: shown as it came */
    }
    return {
      values,
      error: undefined,
      result: {
        request: `${method} ${target.pathname}${target.search}`,
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers.entries()].filter(([name]) => name !== 'set-cookie'),
        body,
        ms: Math.round(performance.now() - started),
      },
    };
  } catch (error) {
    return data({ values, error: t('debug.api.failed', { message: error instanceof Error ? error.message : String(error) }), result: undefined }, { status: 502 });
  }
}

export const handle: I18nHandle = { i18n: ['debug'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [...pageMeta(matches, data?.title), { name: 'robots', content: 'noindex' }];

export default function ApiTest() {
  const { calls } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const values = answer?.values;
  const busy = navigation.state === 'submitting';
  const result = answer?.result;

  return (
    <section className="debug-page" aria-labelledby="api-test-title">
      <h1 id="api-test-title">{t('debug.api.title')}</h1>
      <p className="debug-notice">{t('debug.notice')}</p>
      <p className="muted">{t('debug.api.lead')}</p>
      <Form method="post" className="card form api-test-form" aria-labelledby="api-test-title">
        <div className="field">
          <label htmlFor="api-call">{t('debug.api.endpoint')}</label>
          <select id="api-call" name="call" defaultValue={values?.call ?? DEFAULT_CALL} key={values?.call}>
            {calls.map((c) => (
              <option key={c.value} value={c.value} title={c.summary}>
                {c.value}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="api-path">{t('debug.api.path')}</label>
          <input id="api-path" name="path" type="text" inputMode="url" autoComplete="off" spellCheck={false} defaultValue={values?.path ?? ''} key={`p${values?.path}`} aria-describedby="api-path-hint" placeholder="/api/v1/guides?page=1" />
          <p className="field-hint" id="api-path-hint">{t('debug.api.pathHint')}</p>
        </div>
        <div className="field">
          <label htmlFor="api-body">{t('debug.api.body')}</label>
          <textarea id="api-body" name="body" rows={4} spellCheck={false} defaultValue={values?.body ?? ''} key={`b${values?.body}`} aria-describedby="api-body-hint" />
          <p className="field-hint" id="api-body-hint">{t('debug.api.bodyHint')}</p>
        </div>
        {answer?.error ? (
          <p className="form-error" role="alert">
            {answer.error}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy} aria-busy={busy || undefined}>
            {busy ? t('debug.api.sending') : t('debug.api.send')}
          </button>
        </div>
      </Form>
      {result ? (
        <section className="card api-test-result" aria-labelledby="api-result-title" data-testid="api-result">
          <h2 id="api-result-title">{t('debug.api.result')}</h2>
          <dl>
            <dt>{t('debug.api.status')}</dt>
            <dd data-testid="api-status">
              <code>{result.request}</code> → <strong>{result.status}</strong> {result.statusText}
            </dd>
          </dl>
          <p className="muted small">{t('debug.api.duration', { ms: result.ms })}</p>
          <h3>{t('debug.api.headers')}</h3>
          <pre className="api-test-pre" data-testid="api-headers" tabIndex={0}>
            {result.headers.map(([k, v]) => `${k}: ${v}`).join('\n')}
          </pre>
          <h3>{t('debug.api.responseBody')}</h3>
          <pre className="api-test-pre" data-testid="api-body" tabIndex={0}>
            {result.body}
          </pre>
        </section>
      ) : null}
    </section>
  );
}
