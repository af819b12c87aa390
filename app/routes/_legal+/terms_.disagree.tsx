import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { supportAddress } from '~/http/legal.server';
import { readForm } from '~/http/page.server';
import { getSession } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { safeRedirectPath } from '~/lib/safe-url';
import { termsDeclinedCookie } from '~/lib/terms';

/**
 * /terms/disagree (issue 35): where "不同意" leads, from the modal or the agreement page, with JS or without.
 * It says what disagreeing means (no booking, no messages: the server refuses them) and offers the ways on:
 * read the terms, agree after all, keep browsing (a banner instead of the modal for this browser session),
 * log out, write to support. Anyone may open it; nothing here changes an account.
 */
export const handle: I18nHandle = { i18n: ['terms'] };

export async function loader({ request }: LoaderFunctionArgs) {
  const [session, t] = await Promise.all([getSession(request), getFixedT(request)]);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'));
  return { loggedIn: !!session, redirectTo, support: supportAddress(), title: t('terms.disagree.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

/** The form of the modal and the agreement page posts here: remember the choice for the session, then explain. */
export async function action({ request }: ActionFunctionArgs) {
  const redirectTo = safeRedirectPath((await readForm(request)).get('redirectTo'));
  return redirect(`/terms/disagree?${new URLSearchParams({ redirectTo })}`, { headers: { 'Set-Cookie': termsDeclinedCookie } });
}

export default function DisagreePage() {
  const { loggedIn, redirectTo, support } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="terms-page" aria-labelledby="terms-disagree-title">
      <h1 id="terms-disagree-title">{t('terms.disagree.title')}</h1>
      <p>{t('terms.disagree.consequence')}</p>
      <ul className="terms-ways">
        <li>
          <Link className="button" to={redirectTo}>
            {t('terms.disagree.continue')}
          </Link>
        </li>
        <li>
          <Link className="button button-secondary" to="/terms">
            {t('terms.disagree.readTerms')}
          </Link>
        </li>
        {loggedIn ? (
          <>
            <li>
              <Link className="button button-secondary" to={`/terms/agree?${new URLSearchParams({ redirectTo })}`}>
                {t('terms.disagree.agreeNow')}
              </Link>
            </li>
            <li>
              <Form method="post" action="/logout">
                <button type="submit" className="button button-secondary">
                  {t('terms.disagree.logout')}
                </button>
              </Form>
            </li>
          </>
        ) : null}
      </ul>
      {support ? (
        <p>
          {t('terms.disagree.supportLead')} <a href={`mailto:${support}`}>{t('terms.disagree.support')}</a>
        </p>
      ) : null}
    </section>
  );
}
