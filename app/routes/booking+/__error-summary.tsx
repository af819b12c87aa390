import { Link } from '@remix-run/react';
import { forwardRef, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessages } from '~/components/forms/messages';

/** Moves to a field (scrolled to the middle, focused) instead of jumping the page to the top of it. */
function goTo(event: MouseEvent<HTMLAnchorElement>, id: string | undefined) {
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ block: 'center' });
  target.focus();
}

/**
 * A refused booking form says what is wrong at the top (issue 19), each message a link to its field; the form's own
 * refusal links to the slots when the slot was taken, and to the traveler's order when they already hold it
 * (issue 33). The form's action URL ends with `#id`, so without JS the browser opens here. Not a route (`__`).
 */
export const ErrorSummary = forwardRef<
  HTMLDivElement,
  {
    id: string;
    formErrors: string[] | undefined;
    /** Where the form's own refusal leads (the slots, after TIME_CONFLICT). */
    formErrorAnchor: string | undefined;
    heldOrderId: number | undefined;
    fieldErrors: { name: string; errors: string[] | undefined; anchor: string | undefined }[];
  }
>(function ErrorSummary({ id, formErrors, formErrorAnchor, heldOrderId, fieldErrors }, ref) {
  const { t } = useTranslation();
  const messages = useMessages();
  const hasErrors = fieldErrors.length > 0 || Boolean(formErrors?.length);
  return (
    <div id={id} className="error-summary" tabIndex={-1} ref={ref} hidden={!hasErrors} aria-labelledby={`${id}-title`}>
      {hasErrors ? (
        <>
          <h2 id={`${id}-title`}>{t('booking.form.errorsTitle')}</h2>
          <ul>
            {formErrors?.length ? (
              <li>
                {formErrorAnchor ? (
                  <a href={`#${formErrorAnchor}`} onClick={(e) => goTo(e, formErrorAnchor)}>
                    {messages(formErrors)}
                  </a>
                ) : (
                  messages(formErrors)
                )}
                {heldOrderId ? (
                  <>
                    {' '}
                    <Link to={`/orders/${heldOrderId}`} data-testid="held-order-link">
                      {t('booking.form.alreadyBookedLink')}
                    </Link>
                  </>
                ) : null}
              </li>
            ) : null}
            {fieldErrors.map(({ name, errors, anchor }) => (
              <li key={name}>
                <a href={`#${anchor ?? ''}`} onClick={(e) => goTo(e, anchor)}>
                  {messages(errors)}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
});
