import { Form } from '@remix-run/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useHydrated } from '~/components/hydrated';
import { Markdown } from '~/components/markdown';
import { scrolledToBottom } from '~/lib/terms';

export interface AgreementDocument {
  id: number;
  title: string;
  content: string;
  version: string;
  /** The language of the text, and whether it stands in for the reader's (issue 35: zh-TW only). */
  locale?: string;
  untranslated?: boolean;
}

/**
 * The terms text, the 'scroll to the bottom' hint, the checkbox and Disagree/Agree (SPEC §2 Terms modal, §4).
 * Without JS it is a plain form to /terms/agree. With JS, Agree is enabled only once the text was scrolled to
 * within 10 px of its bottom, the box is ticked and nothing is processing; `onAgree` takes over the submission.
 * Disagree posts the same form to /terms/disagree (issue 35), which says what it means and offers the ways on.
 */
export function TermsAgreement({
  document,
  redirectTo,
  onAgree,
  processing = false,
  error,
  headingId,
}: {
  document: AgreementDocument;
  redirectTo: string;
  onAgree?: (event: FormEvent<HTMLFormElement>) => void;
  processing?: boolean;
  error?: string | null;
  headingId: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const box = useRef<HTMLDivElement>(null);
  const [atBottom, setAtBottom] = useState(false);
  const [checked, setChecked] = useState(false);

  useEffect(() => {
    // A text short enough to need no scrolling is read at once.
    if (box.current && scrolledToBottom(box.current)) setAtBottom(true);
  }, [document.content]);

  const canAgree = !hydrated || (atBottom && checked && !processing);

  return (
    <div className="terms-agreement">
      <h2 id={headingId} lang={document.locale}>
        {document.title}
      </h2>
      {document.untranslated ? (
        <p className="notice terms-untranslated" data-testid="terms-untranslated">
          {t('terms.modal.untranslated')}
        </p>
      ) : null}
      <div
        ref={box}
        className="terms-scroll"
        tabIndex={0}
        role="region"
        aria-label={document.title}
        lang={document.locale}
        onScroll={(event) => {
          if (scrolledToBottom(event.currentTarget)) setAtBottom(true);
        }}
      >
        <Markdown>{document.content}</Markdown>
      </div>
      {hydrated ? (
        <p className={atBottom ? 'terms-hint terms-hint-done' : 'terms-hint'} aria-live="polite" data-testid="terms-hint">
          {atBottom ? t('terms.modal.finished') : t('terms.modal.scrollHint')}
        </p>
      ) : null}
      <Form method="post" action="/terms/agree" className="terms-form" onSubmit={onAgree}>
        <input type="hidden" name="termsId" value={document.id} />
        <input type="hidden" name="termsVersion" value={document.version} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <label className="checkbox">
          <input type="checkbox" name="agree" required checked={checked} onChange={(event) => setChecked(event.currentTarget.checked)} />
          {t('terms.modal.checkbox')}
        </label>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="terms-buttons">
          {/* Disagreeing explains what it means and the ways on (/terms/disagree), with JS or without. */}
          <button type="submit" className="button button-secondary" formAction="/terms/disagree" formNoValidate name="intent" value="disagree">
            {t('terms.modal.disagree')}
          </button>
          <button type="submit" className="button" disabled={!canAgree}>
            {processing ? t('terms.modal.processing') : t('terms.modal.agree')}
          </button>
        </div>
      </Form>
    </div>
  );
}
