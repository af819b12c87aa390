import { Form, Link } from '@remix-run/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { SubmitButton } from '~/components/forms/form-fields';

/**
 * "Are you sure?" before a change that cannot be taken back (cancelling a booking, deleting a review; issue 19).
 * A native dialog that works both ways: without JS the server answers the first press with the page holding this
 * dialog `open` in the flow (a confirmation step; "keep" is a link back); with JS the page opens it as a modal from
 * the button's click, and "keep" closes it. Confirming posts `intent` again with `confirmed=yes`.
 */
export function ConfirmDialog({
  title,
  children,
  intent,
  hidden = {},
  confirmLabel,
  keepLabel,
  busyLabel,
  busy,
  action,
  onKeep,
  testId,
}: {
  title: string;
  children: ReactNode;
  intent: string;
  /** Other fields the confirmed form sends (the object's id). */
  hidden?: Record<string, string | number>;
  confirmLabel: string;
  keepLabel: string;
  busyLabel: string;
  busy: boolean;
  action?: string;
  /** Set when JS opened the dialog: it is then a modal, and keeping closes it. */
  onKeep?: () => void;
  testId?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && onKeep && !element.open) element.showModal();
  }, [onKeep]);
  return (
    <dialog
      ref={dialog}
      open={onKeep ? undefined : true}
      className="card confirm-dialog"
      aria-labelledby="confirm-dialog-title"
      onClose={onKeep}
      data-testid={testId}
    >
      <h2 id="confirm-dialog-title">{title}</h2>
      {children}
      <Form method="post" action={action} className="confirm-dialog-actions">
        <input type="hidden" name="confirmed" value="yes" />
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <SubmitButton name="intent" value={intent} busy={busy} className="button button-danger" label={confirmLabel} busyLabel={busyLabel} />
        {onKeep ? (
          <button type="button" className="button button-secondary" onClick={() => dialog.current?.close()}>
            {keepLabel}
          </button>
        ) : (
          <Link to={action ?? '.'} className="button button-secondary">
            {keepLabel}
          </Link>
        )}
      </Form>
    </dialog>
  );
}
