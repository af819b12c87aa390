import { Form } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

/**
 * The delete and hide buttons under a board post or reply (plain forms, so they work without JS): delete for its
 * author or an admin, hide with a required reason for an admin. `idField` names the hidden id the action reads.
 */
export function BoardModeration({
  idField,
  id,
  canDelete,
  canHide,
  labels,
}: {
  idField: 'postId' | 'replyId';
  id: number;
  canDelete: boolean;
  canHide: boolean;
  labels: { delete: string; hide: string };
}) {
  const { t } = useTranslation();
  return (
    <>
      {canDelete ? (
        <Form method="post">
          <input type="hidden" name={idField} value={id} />
          <button type="submit" name="intent" value="delete" className="button button-small button-secondary">
            {labels.delete}
          </button>
        </Form>
      ) : null}
      {canHide ? (
        <Form method="post" className="board-hide">
          <input type="hidden" name={idField} value={id} />
          {/* A visible label and a full-size field (issue 35: an unlabeled 20 px native input). */}
          <div className="field">
            <label htmlFor={`hide-reason-${idField}-${id}`}>{t('board.post.hideReason')}</label>
            <input id={`hide-reason-${idField}-${id}`} type="text" name="reason" required maxLength={300} />
          </div>
          <button type="submit" name="intent" value="hide" className="button button-small button-secondary">
            {labels.hide}
          </button>
        </Form>
      ) : null}
    </>
  );
}
