import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import type { ReactNode } from 'react';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { PageCacheHandle } from '~/http/contract';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { apiReference, type RefField, type RefOperation } from '~/lib/api-reference';
import { pageMeta } from '~/lib/meta';
import styles from '~/styles/apidocs.css?url';
import { openApiDocument } from './__openapi-document.server';

/**
 * /api/docs (issue 33): the API reference, rendered on the server from the very document /api/v1/openapi.json
 * serves. A page, not an API call: the route is more specific than `api+/$.ts` (the JSON 404 of unknown /api paths).
 * Operations fold in <details>, so it reads the same without JS. Anonymous copies may be kept a minute (decision 043).
 */
export const handle: I18nHandle & PageCacheHandle = { i18n: ['apidocs'], cache: 'shared' };

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request);
  return { tags: apiReference(openApiDocument(), new URL(request.url).origin), title: t('apidocs.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function ApiDocs() {
  const { tags } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="api-docs">
      <h1>{t('apidocs.title')}</h1>
      <p>{t('apidocs.intro')}</p>
      <p className="muted">{t('apidocs.requiredMark')}</p>
      <p>
        {t('apidocs.englishNote')} <a href="/api/v1/openapi.json">{t('apidocs.json')}</a>
      </p>
      <nav aria-labelledby="api-contents">
        <h2 id="api-contents">{t('apidocs.contents')}</h2>
        <ul className="api-toc">
          {tags.map((tag) => (
            <li key={tag.name}>
              <a href={`#${tag.name}`}>{tag.name}</a> <span className="muted">{t('apidocs.operations', { count: tag.operations.length })}</span>
            </li>
          ))}
        </ul>
      </nav>
      {tags.map((tag) => (
        <section key={tag.name} id={tag.name} aria-labelledby={`tag-${tag.name}`}>
          <h2 id={`tag-${tag.name}`}>{tag.name}</h2>
          {tag.operations.map((operation) => (
            <Operation key={operation.id} operation={operation} />
          ))}
        </section>
      ))}
    </div>
  );
}

function Operation({ operation: op }: { operation: RefOperation }) {
  const { t } = useTranslation();
  const who = op.auth === 'public' ? t('apidocs.public') : op.auth === 'user' ? t('apidocs.anySession') : op.auth.join(', ');
  return (
    <details id={op.id} className="api-op">
      <summary>
        <span className={`api-method api-${op.method.toLowerCase()}`}>{op.method}</span> <code className="api-path">{op.path}</code>{' '}
        <span className="api-summary" lang="en">
          {op.summary}
        </span>
        {op.deprecated ? <span className="api-flag"> {t('apidocs.deprecated')}</span> : null}
      </summary>
      {op.description ? <p lang="en">{op.description}</p> : null}
      <p>
        <strong>{t('apidocs.whoMayCall')}:</strong> {who}
        {op.developmentOnly ? ` (${t('apidocs.developmentOnly')})` : ''}
      </p>
      {op.parameters.length ? (
        <>
          <h3>{t('apidocs.parameters')}</h3>
          <ScrollTable label={t('apidocs.parameters')} columns={[t('apidocs.name'), t('apidocs.in'), t('apidocs.type'), t('apidocs.description')]}>
            {op.parameters.map((p) => (
              <tr key={`${p.in}-${p.name}`}>
                <td>
                  <code>{p.name}</code>
                  {p.required ? '*' : ''}
                </td>
                <td>{p.in}</td>
                <td>{p.type}</td>
                <td>{p.description}</td>
              </tr>
            ))}
          </ScrollTable>
        </>
      ) : null}
      {op.body ? (
        <>
          <h3>{t('apidocs.requestBody')}</h3>
          <p className="muted">{op.body.types.join(', ')}</p>
          <Fields fields={op.body.fields} />
        </>
      ) : null}
      <h3>{t('apidocs.answers')}</h3>
      <p>
        <strong>{op.success.status}</strong>
        {op.success.type ? ` ${op.success.type}` : ' data'}
        {op.success.headers.length ? ` · ${t('apidocs.answerHeaders')}: ${op.success.headers.join(', ')}` : ''}
      </p>
      {op.success.fields.length ? <Fields fields={op.success.fields} /> : null}
      {op.errors.length ? (
        <>
          <h3>{t('apidocs.errors')}</h3>
          <ScrollTable label={t('apidocs.errors')} columns={[t('apidocs.status'), t('apidocs.codes')]}>
            {op.errors.map((e) => (
              <tr key={e.status}>
                <td>{e.status}</td>
                <td className="api-codes">{e.codes.join(', ')}</td>
              </tr>
            ))}
          </ScrollTable>
        </>
      ) : null}
      <h3>{t('apidocs.example')}</h3>
      <pre className="api-example">
        <code>{op.example}</code>
      </pre>
    </details>
  );
}

/** A field list: `*` marks a required field; an object's fields follow it, indented. */
function Fields({ fields }: { fields: RefField[] }) {
  const { t } = useTranslation();
  if (!fields.length) return <p className="muted">{t('apidocs.noFields')}</p>;
  return (
    <ul className="api-fields" lang="en">
      {fields.map((f) => (
        <li key={f.name}>
          <code>{f.name}</code>
          {f.required ? '*' : ''} <span className="api-type">{f.type}</span>
          {f.description ? ` — ${f.description}` : ''}
          {f.fields?.length ? <Fields fields={f.fields} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** A table that scrolls inside its own box on a phone: focusable and named, so a keyboard can scroll it. */
function ScrollTable({ label, columns, children }: { label: string; columns: string[]; children: ReactNode }) {
  return (
    <div className="api-table" tabIndex={0} role="region" aria-label={label}>
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
