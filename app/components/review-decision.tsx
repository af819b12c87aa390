import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import type { z } from 'zod';
import { Field, SubmitButton, TextareaField } from './forms/form-fields';
import { FormErrors } from './forms/messages';
import { useSchemaForm } from './forms/use-schema-form';

/**
 * The approve/reject pair of an admin review queue (ID applications, photos): an approve button and a
 * reject form with the reason the person will read. Both are plain POSTs of `id` and `intent` to the
 * page's own action; the reject form is checked with the action's schema, and a refused decision comes
 * back as `lastResult` (the page passes it to the item it concerns only), keeping the typed reason.
 */
export function ReviewDecision({
  itemId,
  reasonName,
  schema,
  lastResult,
  multiline = false,
  maxLength,
  labels,
}: {
  itemId: number;
  /** The reason's field name, as the schema and the API call it. */
  reasonName: string;
  schema: z.ZodType;
  lastResult?: SubmissionResult<string[]> | null;
  multiline?: boolean;
  maxLength: number;
  labels: { approve: string; reject: string; reason: string };
}) {
  const [form, fields] = useSchemaForm<Record<string, string>>({ id: `decision-${itemId}`, schema, lastResult });
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formData?.get('id') === String(itemId) ? navigation.formData.get('intent') : null;
  const reason = fields[reasonName]!;
  return (
    <>
      <FormErrors form={form} />
      <div className="queue-forms">
        <Form method="post">
          <input type="hidden" name="id" value={itemId} />
          <SubmitButton busy={pending === 'approve'} name="intent" value="approve" label={labels.approve} />
        </Form>
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="id" value={itemId} />
          {multiline ? (
            <TextareaField field={reason} label={labels.reason} rows={2} maxLength={maxLength} />
          ) : (
            <Field field={reason} label={labels.reason} maxLength={maxLength} />
          )}
          <SubmitButton busy={pending === 'reject'} name="intent" value="reject" className="button button-danger" label={labels.reject} />
        </Form>
      </div>
    </>
  );
}
