import { useLocation } from '@remix-run/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { RefreshWithoutJs } from '~/components/meta-refresh';
import { useRootData } from '~/lib/root-data';

const TermsModal = lazy(() => import('./terms-modal').then((module) => ({ default: module.TermsModal })));

/** Pages where the terms are read or agreed to, that must stay reachable, or move on by themselves never ask. */
const EXEMPT = /^\/(terms|privacy-policy|booking-terms|login-success|logout|logout-success|offline)(\/|$)/;

/**
 * The terms check on load (SPEC §4), for logged-in users only (issue 35: a visitor gets a banner that does not
 * block the page, terms-notice.tsx, and none of this code). Admins skip it. A user must agree when the server
 * says so (root loader, `termsRequired`: the current text of their language): with JS the modal opens (loaded
 * only then); without JS the page moves on to /terms/agree, which comes back here after agreeing. A user who
 * disagreed this session (`termsDeclined`) browses on with a banner instead.
 */
export function TermsGate() {
  const data = useRootData();
  const { pathname, search } = useLocation();
  const user = data?.user;
  // The agreement page in the language of this page (a ?lng= of this URL is not kept anywhere without JS).
  const agreeUrl = `/terms/agree?${new URLSearchParams({ redirectTo: pathname + search, lng: data?.locale ?? 'zh-TW' })}`;
  const required = !!user && user.type !== 'admin' && !!data?.termsRequired && !data?.termsDeclined;
  const [open, setOpen] = useState(false);
  const exempt = EXEMPT.test(pathname);

  useEffect(() => {
    setOpen(required && !exempt);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per user (SPEC §4) and on leaving an exempt page, not per page
  }, [user?.id, required, exempt]);

  return (
    <>
      {required && !exempt ? <RefreshWithoutJs seconds={0} url={agreeUrl} /> : null}
      {open ? (
        <Suspense>
          <TermsModal loggedIn onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
