import type { ReactNode } from 'react';
import { ErrorList } from './messages';

/**
 * The form kit's field layout without conform: label, the caller's control, and its errors under it. For plain
 * forms that are not schema forms, such as the /guides search (a GET form whose browser code stays free of
 * conform and zod). The control carries `id`, and `aria-describedby={fieldErrorId(id)}` while there are errors.
 */
export function FieldFrame({
  id,
  label,
  errors,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  /** Keys or already translated text (ErrorList turns them into words). */
  errors?: string[];
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      <ErrorList id={fieldErrorId(id)} errors={errors} />
    </div>
  );
}

export const fieldErrorId = (id: string) => `${id}-error`;
