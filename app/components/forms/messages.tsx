import type { FormMetadata } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '~/lib/messages';

/*
 * The form kit's messages: i18n keys (the schemas' validation.* keys, checked in the browser too) or text
 * the server already translated; `useMessages` is the one place that turns them into words. Kept apart
 * from the fields (no conform or zod at run time), so the email banner in every page's layout stays light.
 */

/** Turns a list of messages (keys or translated text) into one line in the reader's language. */
export function useMessages() {
  const { t } = useTranslation();
  return (messages?: string[] | null) => (messages ?? []).map((m) => translateMessage(t, m)).join(' ');
}

/** A field's errors, under the control, named by its aria-describedby. */
export function ErrorList({ id, errors, alert = false }: { id?: string; errors?: string[] | null; alert?: boolean }) {
  const messages = useMessages();
  if (!errors?.length) return null;
  return (
    <p className="field-error" id={id} role={alert ? 'alert' : undefined}>
      {messages(errors)}
    </p>
  );
}

/** Errors about the whole form (a refused login, a failed save), announced as they appear. */
export function FormErrors({ form }: { form: Pick<FormMetadata, 'errors' | 'errorId'> }) {
  const messages = useMessages();
  if (!form.errors?.length) return null;
  return (
    <p className="form-error" id={form.errorId} role="alert">
      {messages(form.errors)}
    </p>
  );
}
