import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { clearSessionCookieHeader, getSession } from '~/http/session.server';
import { logout } from '~/services/accounts/accounts.server';

/** POST /logout ends this browser's session (SPEC §4: logout always clears the session). GET changes nothing. */
export async function loader() {
  return redirect('/');
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  if (session) await logout(session.id);
  return redirect('/logout-success', { headers: { 'Set-Cookie': await clearSessionCookieHeader() } });
}
