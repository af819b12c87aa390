import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TERMS_AGREED_KEY } from '~/lib/terms';
import { TermsAgreement, type AgreementDocument } from './terms-agreement';

/**
 * The terms modal (SPEC §2, §4), loaded only when it is to open (terms-gate.tsx). It reads the current terms
 * from GET /api/terms/current; a logged-in user's agreement goes to POST /api/terms/agree, a visitor's is only
 * the local record (SPEC §6: guests store terms consent locally).
 */
export function TermsModal({ loggedIn, onClose }: { loggedIn: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [document, setDocument] = useState<AgreementDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);

  useEffect(() => {
    dialog.current?.showModal();
    let current = true;
    fetch('/api/terms/current', { headers: { 'Accept-Language': i18n.language } })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const { data } = (await response.json()) as { data: AgreementDocument };
        if (current) setDocument(data);
      })
      .catch(() => current && setError(t('terms.modal.loadFailed')));
    return () => {
      current = false;
    };
  }, [i18n.language, t]);

  const agree = async (event: FormEvent<HTMLFormElement>) => {
    // Disagree: the form goes on to /terms/disagree as a navigation (the modal closes there).
    if ((event.nativeEvent as SubmitEvent).submitter?.getAttribute('value') === 'disagree') return;
    event.preventDefault();
    if (!document || processing) return;
    setProcessing(true);
    setError(null);
    try {
      if (loggedIn) {
        const response = await fetch('/api/terms/agree', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Accept-Language': i18n.language },
          body: JSON.stringify({ termsId: document.id, termsVersion: document.version }),
        });
        if (!response.ok) {
          const answer = (await response.json().catch(() => null)) as { message?: string } | null;
          throw new Error(answer?.message || t('terms.modal.agreeFailed'));
        }
      }
      try {
        localStorage.setItem(TERMS_AGREED_KEY, JSON.stringify({ version: document.version, agreedAt: new Date().toISOString() }));
      } catch {
        /* storage may be disabled */
      }
      dialog.current?.close();
      onClose();
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : t('terms.modal.agreeFailed'));
      setProcessing(false);
    }
  };

  return (
    // Escape does not dismiss it: the choice is Agree or Disagree.
    <dialog ref={dialog} className="terms-modal" aria-labelledby="terms-modal-title" onCancel={(event) => event.preventDefault()} data-testid="terms-modal">
      {document ? (
        <TermsAgreement
          document={document}
          redirectTo={location.pathname + location.search}
          headingId="terms-modal-title"
          onAgree={(event) => void agree(event)}
          processing={processing}
          error={error}
        />
      ) : (
        <p id="terms-modal-title" role={error ? 'alert' : 'status'}>
          {error ?? t('terms.modal.processing')}
        </p>
      )}
    </dialog>
  );
}
