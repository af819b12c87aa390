import { useForm, type Submission, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import type { z } from 'zod';

/**
 * A conform form checked with the same zod schema as the server: the browser's own constraints with JS
 * off, the schema on submit with JS on (then again on every input once shown, never on blur: an error
 * appearing as a field loses focus moves the button under a pressing finger).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- conform's own bound for a form's fields
export function useSchemaForm<Fields extends Record<string, any>>({
  id,
  schema,
  lastResult,
  defaultValue,
  validate,
}: {
  id: string;
  schema: z.ZodType;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Partial<Record<keyof Fields, unknown>>;
  /** Picks the schema per submission (e.g. by intent); defaults to `schema`. */
  validate?: (formData: FormData) => z.ZodType;
}) {
  return useForm<Fields>({
    id,
    lastResult: lastResult ?? undefined,
    // conform's defaultValue is typed from the schema's input; the forms pass their display values.
    defaultValue: defaultValue as never,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: validate ? validate(formData) : schema }) as unknown as Submission<Fields>,
  });
}
