import type { ActionFunctionArgs } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { Link, useActionData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { SUPPORTED_LOCALES } from '~/i18n/config';
import { getFixedT, localeCookie } from '~/i18n/i18n.server';
import { assertSameOrigin } from '~/lib/http.server';
import { themeCookie } from '~/lib/preferences.server';
import { safeRedirectPath } from '~/lib/safe-url';
import { THEMES } from '~/lib/theme';

/** Language and theme choices: plain form posts that set a cookie and go back to the page they came from. */
const preferenceSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('locale'), locale: z.enum(SUPPORTED_LOCALES), redirectTo: z.string().optional() }),
  z.object({ intent: z.literal('theme'), theme: z.enum(THEMES), redirectTo: z.string().optional() }),
]);

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const parsed = preferenceSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const t = await getFixedT(request);
    return data({ error: t('errors.invalidPreference') }, { status: 400 });
  }
  const choice = parsed.data;
  const cookie =
    choice.intent === 'locale' ? await localeCookie.serialize(choice.locale) : await themeCookie.serialize(choice.theme);
  return redirect(safeRedirectPath(choice.redirectTo), { headers: { 'Set-Cookie': cookie } });
}

export function loader() {
  return redirect('/');
}

export default function Preferences() {
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <section className="error-page" role="alert">
      <h1>{result?.error ?? t('errors.invalidPreference')}</h1>
      <Link className="button" to="/">
        {t('errors.backHome')}
      </Link>
    </section>
  );
}
