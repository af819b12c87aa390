import type { ActionFunctionArgs } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { Link, useActionData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { parseWithZod } from '@conform-to/zod/v4';
import { getFixedT, localeCookie } from '~/i18n/i18n.server';
import { getSession } from '~/http/session.server';
import { themeCookie } from '~/http/preferences.server';
import { readForm } from '~/http/page.server';
import { safeRedirectPath } from '~/lib/safe-url';
import { preferenceSchema } from '~/schemas/preferences';
import { saveUserLocale } from '~/services/accounts/user-preferences.server';

/**
 * Language and theme choices: plain form posts that set a cookie and go back to the page they came from.
 * A logged-in person's language is also stored on their account (users.locale), so mail follows it.
 */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: preferenceSchema });
  if (submission.status !== 'success') {
    const t = await getFixedT(request);
    return data({ error: t('errors.invalidPreference') }, { status: 400 });
  }
  const choice = submission.value;
  if (choice.intent === 'locale') {
    const session = await getSession(request);
    if (session) await saveUserLocale(session.user.id, choice.locale);
  }
  const cookie =
    choice.intent === 'locale' ? await localeCookie.serialize(choice.locale) : await themeCookie.serialize(choice.theme);
  return redirect(safeRedirectPath(choice.redirectTo), { headers: { 'Set-Cookie': cookie } });
}

/**
 * Seen only without JS: after a refused post (the message), or when someone opens /preferences directly
 * (the choices themselves are in the header on every page, this one included).
 */
export default function Preferences() {
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <section className="error-page" role={result ? 'alert' : undefined}>
      <h1>{result?.error ?? `${t('language.label')} · ${t('theme.label')}`}</h1>
      <Link className="button" to="/">
        {t('errors.backHome')}
      </Link>
    </section>
  );
}
