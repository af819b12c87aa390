import { Link, useNavigation } from '@remix-run/react';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTaipeiDate } from '~/lib/dates';
import { ConfirmDialog } from './confirm-dialog';
import { useMessages } from './forms/messages';

/**
 * What the admin's detail pages (/admin/users/:id, /admin/orders/:id) share (issue 34: they were written twice):
 * actions that ask first, the dialog that asks, a labelled text box with its error, and a review's line.
 */

/** An action waiting for its confirmation: its intent and what the form carried with it (a reason, a role). */
export type Asking<Intent extends string> = { intent: Intent } & Record<string, string | undefined>;

/**
 * The state of a page whose destructive actions ask first: with JS a button opens the dialog (`setAsking`); without
 * JS the server's answer `{ confirm }` is the confirmation step. The page's answer after a confirmed action closes
 * the dialog JS opened. `busyIntent` is the action being sent.
 */
export function useAdminConfirmation<Intent extends string>(answer: { confirm?: Asking<Intent> } | object | undefined) {
  const [asking, setAsking] = useState<Asking<Intent> | null>(null);
  const fromServer = answer && 'confirm' in answer ? (answer.confirm ?? null) : null;
  const navigation = useNavigation();
  useEffect(() => {
    if (navigation.state === 'idle') setAsking(null);
  }, [navigation.state]);
  const busyIntent = navigation.state === 'submitting' ? String(navigation.formData?.get('intent')) : null;
  return { confirm: asking ?? fromServer, asking, setAsking, busyIntent };
}

/** The dialog an admin action asks with (ConfirmDialog with the admin area's "keep" and "working" words). */
export function AdminConfirmDialog({
  title,
  intent,
  hidden,
  action,
  confirmLabel,
  busyIntent,
  onKeep,
  testId,
  children,
}: {
  title: string;
  intent: string;
  hidden: Record<string, string>;
  action: string;
  confirmLabel: string;
  busyIntent: string | null;
  onKeep?: () => void;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      title={title}
      intent={intent}
      hidden={hidden}
      action={action}
      confirmLabel={confirmLabel}
      keepLabel={t('admin.keep')}
      busyLabel={t('admin.working')}
      busy={busyIntent === intent}
      onKeep={onKeep}
      testId={testId}
    >
      {children}
    </ConfirmDialog>
  );
}

/** A labelled, required text box of an admin form, with the server's error under it and what was typed kept. */
export function AdminTextarea({
  id,
  name,
  label,
  rows,
  maxLength,
  defaultValue,
  errors,
}: {
  id: string;
  name: string;
  label: string;
  rows: number;
  maxLength: number;
  defaultValue: string;
  errors: string[] | null | undefined;
}) {
  const messages = useMessages();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        required
        maxLength={maxLength}
        defaultValue={defaultValue}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? errorId : undefined}
      />
      {errors ? (
        <p className="field-error" id={errorId}>
          {messages(errors)}
        </p>
      ) : null}
    </div>
  );
}

export interface AdminReviewLine {
  id: number;
  orderId: number;
  rating: number;
  comment: string | null;
  isHidden: boolean;
  createdAt: string;
  reviewerId: number;
  reviewerName: string;
  revieweeId: number;
  revieweeName: string;
}

/** One review as the admin reads it: stars, who wrote it about whom (or one side), its order, date, hidden, text. */
export function AdminReviewItem({ review: r, show }: { review: AdminReviewLine; show: 'both' | 'reviewer' | 'reviewee' }) {
  const { t, i18n } = useTranslation();
  const reviewer = <Link to={`/admin/users/${r.reviewerId}`}>{r.reviewerName}</Link>;
  const reviewee = <Link to={`/admin/users/${r.revieweeId}`}>{r.revieweeName}</Link>;
  return (
    <li>
      <strong>{r.rating} / 5</strong> ·{' '}
      {show === 'both' ? (
        <>
          {reviewer} → {reviewee}
        </>
      ) : show === 'reviewer' ? (
        reviewer
      ) : (
        reviewee
      )}{' '}
      {show === 'both' ? null : (
        <>
          · <Link to={`/admin/orders/${r.orderId}`}>#{r.orderId}</Link>{' '}
        </>
      )}
      · {formatTaipeiDate(r.createdAt, i18n.language)}
      {r.isHidden ? <> · {t('admin.users.reviews.hidden')}</> : null}
      {r.comment ? <p className="small">{r.comment}</p> : null}
    </li>
  );
}
