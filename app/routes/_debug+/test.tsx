import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { Component, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireDebugAccess } from '~/http/debug.server';
import { readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import { pageMeta } from '~/lib/meta';

/**
 * /test — debug page (SPEC §2): each kind of UI element the site uses, the render-error screen ('出現錯誤' and
 * its retry button) and a toast. Who may open it: requireDebugAccess (docs/decisions/030-debug-routes.md).
 * Without JS, ?demo=error shows the error screen and the toast form posts here and comes back with the toast.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireDebugAccess(request);
  const t = await getFixedT(request);
  const showError = new URL(request.url).searchParams.get('demo') === 'error';
  return { showError, title: t('debug.ui.title') };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireDebugAccess(request);
  const form = await readForm(request);
  if (form.get('intent') === 'toast') return redirectWithToast('/test', { key: 'debug.ui.toastText', type: 'success' });
  const t = await getFixedT(request);
  return data({ error: t('debug.ui.unknownIntent') }, { status: 400 });
}

export const handle: I18nHandle = { i18n: ['debug'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [...pageMeta(matches, data?.title), { name: 'robots', content: 'noindex' }];

/** A render error inside it shows the error screen in place of its children; Retry renders them again. */
class DemoBoundary extends Component<{ children: ReactNode; fallback: (retry: () => void) => ReactNode; failed?: boolean }, { failed: boolean }> {
  state = { failed: Boolean(this.props.failed) };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback(() => this.setState({ failed: false })) : this.props.children;
  }
}

function Thrower({ armed }: { armed: boolean }) {
  if (armed) throw new Error('debug: a render error on purpose (/test)');
  return null;
}

export default function TestPage() {
  const { showError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const [armed, setArmed] = useState(false);
  const [resetNote, setResetNote] = useState(false);

  return (
    <section className="debug-page" aria-labelledby="test-title">
      <h1 id="test-title">{t('debug.ui.title')}</h1>
      <p className="debug-notice">{t('debug.notice')}</p>
      <p className="muted">{t('debug.ui.lead')}</p>

      <section className="card" aria-labelledby="test-buttons">
        <h2 id="test-buttons">{t('debug.ui.buttons')}</h2>
        <div className="debug-row">
          <button type="button" className="button">{t('debug.ui.primary')}</button>
          <button type="button" className="button button-secondary">{t('debug.ui.secondary')}</button>
          <button type="button" className="button button-danger">{t('debug.ui.danger')}</button>
          <button type="button" className="button" disabled>{t('debug.ui.disabled')}</button>
        </div>
      </section>

      <section className="card" aria-labelledby="test-fields">
        <h2 id="test-fields">{t('debug.ui.fields')}</h2>
        <div className="form">
          <div className="field">
            <label htmlFor="test-text">{t('debug.ui.text')}</label>
            <input id="test-text" name="text" type="text" aria-describedby="test-text-hint" />
            <p className="field-hint" id="test-text-hint">{t('debug.ui.textHint')}</p>
          </div>
          <div className="field">
            <label htmlFor="test-select">{t('debug.ui.select')}</label>
            <select id="test-select" name="select">
              <option>{t('debug.ui.optionA')}</option>
              <option>{t('debug.ui.optionB')}</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="test-textarea">{t('debug.ui.textarea')}</label>
            <textarea id="test-textarea" name="textarea" rows={2} />
          </div>
          <div className="debug-check">
            <input id="test-checkbox" type="checkbox" name="checkbox" />
            <label htmlFor="test-checkbox">{t('debug.ui.checkbox')}</label>
          </div>
          <fieldset className="debug-radios">
            <legend>{t('debug.ui.radioLegend')}</legend>
            <div className="debug-check">
              <input id="test-radio-a" type="radio" name="radio" value="a" defaultChecked />
              <label htmlFor="test-radio-a">{t('debug.ui.radioA')}</label>
            </div>
            <div className="debug-check">
              <input id="test-radio-b" type="radio" name="radio" value="b" />
              <label htmlFor="test-radio-b">{t('debug.ui.radioB')}</label>
            </div>
          </fieldset>
        </div>
      </section>

      <section className="card" aria-labelledby="test-feedback">
        <h2 id="test-feedback">{t('debug.ui.feedback')}</h2>
        <p className="toast">{t('debug.ui.info')}</p>
        <p className="toast toast-success">{t('debug.ui.success')}</p>
        <p className="form-error">{t('debug.ui.error')}</p>
        <h3>{t('debug.ui.badges')}</h3>
        <div className="debug-row">
          <span className="status-pill status-pending">{t('debug.ui.pending')}</span>
          <span className="status-pill status-confirmed">{t('debug.ui.confirmed')}</span>
          <span className="status-pill status-cancelled">{t('debug.ui.cancelled')}</span>
        </div>
      </section>

      <section className="card" aria-labelledby="test-table">
        <h2 id="test-table">{t('debug.ui.table')}</h2>
        <div className="table-scroll">
          <table className="debug-table">
            <thead>
              <tr>
                <th scope="col">{t('debug.ui.col')}</th>
                <th scope="col">{t('debug.ui.value')}</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>{t('debug.ui.row1')}</td>
                <td>#1024</td>
              </tr>
              <tr>
                <td>{t('debug.ui.row2')}</td>
                <td>2025-06-03</td>
              </tr>
            </tbody>
          </table>
        </div>
      </section>

      <section className="card" aria-labelledby="test-boundary">
        <h2 id="test-boundary">{t('debug.ui.boundary')}</h2>
        <p className="muted">{t('debug.ui.boundaryLead')}</p>
        <DemoBoundary
          failed={showError}
          fallback={(retry) => (
            <div className="debug-error" role="alert" data-testid="demo-error">
              <p className="debug-error-title">{t('errors.title')}</p>
              <p>{t('errors.generic')}</p>
              {/* Without JS the link is the retry: the page without ?demo=error. */}
              <a
                className="button"
                href="/test"
                onClick={(e) => {
                  e.preventDefault();
                  setArmed(false);
                  setResetNote(true);
                  retry();
                }}
              >
                {t('errors.retry')}
              </a>
            </div>
          )}
        >
          <Thrower armed={armed} />
          {resetNote ? <p role="status">{t('debug.ui.boundaryReset')}</p> : null}
          <a
            className="button button-secondary"
            href="/test?demo=error"
            onClick={(e) => {
              e.preventDefault();
              setResetNote(false);
              setArmed(true);
            }}
          >
            {t('debug.ui.throw')}
          </a>
        </DemoBoundary>
      </section>

      <section className="card" aria-labelledby="test-toast">
        <h2 id="test-toast">{t('debug.ui.toast')}</h2>
        <p className="muted">{t('debug.ui.toastLead')}</p>
        <Form method="post">
          <button type="submit" name="intent" value="toast" className="button">
            {t('debug.ui.showToast')}
          </button>
        </Form>
      </section>
    </section>
  );
}
