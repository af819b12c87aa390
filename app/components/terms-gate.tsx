import { useLocation } from '@remix-run/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { RefreshWithoutJs } from '~/components/meta-refresh';
import { HAS_VISITED_KEY, parseLocalTermsRecord, TERMS_AGREED_KEY } from '~/lib/terms';
import { useRootData } from '~/lib/root-data';

const TermsModal = lazy(() => import('./terms-modal').then((module) => ({ default: module.TermsModal })));

/** Pages where the terms are read or agreed to, that must stay reachable, or move on by themselves never ask. */
const EXEMPT = /^\/(terms|privacy-policy|booking-terms|login-success|logout|logout-success|offline)(\/|$)/;

/**
 * The terms check on load (SPEC §4), re-run when the user changes. Admins skip it. A logged-in user must agree
 * when the server says so (root loader, `termsRequired`): with JS the modal opens; without JS the page moves on
 * to /terms/agree, which comes back here after agreeing. A visitor without a local agreement sees the modal on
 * the first visit only (hasVisited); a corrupt local record is deleted without showing it.
 */
export function TermsGate() {
  const data = useRootData();
  const { pathname, search } = useLocation();
  const user = data?.user;
  const required = !!user && user.type !== 'admin' && !!data?.termsRequired;
  const [open, setOpen] = useState(false);
  const exempt = EXEMPT.test(pathname);

  useEffect(() => {
    if (exempt || user?.type === 'admin') return setOpen(false);
    if (user) return setOpen(required);
    try {
      const record = parseLocalTermsRecord(localStorage.getItem(TERMS_AGREED_KEY));
      if (record === 'corrupt') return void localStorage.removeItem(TERMS_AGREED_KEY);
      if (record || localStorage.getItem(HAS_VISITED_KEY)) return;
      localStorage.setItem(HAS_VISITED_KEY, 'true');
      setOpen(true);
    } catch {
      /* storage may be disabled: no first-visit notice */
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per user (SPEC §4) and on leaving an exempt page, not per page
  }, [user?.id, required, exempt]);

  return (
    <>
      {required && !exempt ? <RefreshWithoutJs seconds={0} url={`/terms/agree?${new URLSearchParams({ redirectTo: pathname + search })}`} /> : null}
      {open ? (
        <Suspense>
          <TermsModal loggedIn={!!user} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
