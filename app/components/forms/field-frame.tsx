import type { ReactNode } from 'react';

/**
 * The form kit's field layout without conform: label, the caller's control, and its error under it (the same
 * markup as the kit's fields). For plain forms that are not schema forms, such as the /guides search (a GET
 * form whose browser code stays free of conform and zod). The error is text the server already translated,
 * so nothing here turns keys into words. The control carries `id`, and `aria-describedby={fieldErrorId(id)}`
 * while there is an error.
 */
export function FieldFrame({
  id,
  label,
  error,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <FieldShell id={id} label={label} className={className}>
      {children}
      {error ? (
        <p className="field-error" id={fieldErrorId(id)}>
          {error}
        </p>
      ) : null}
    </FieldShell>
  );
}

/** The markup every field of the kit shares: the wrapper, the label naming the control, then the control and what follows it. */
export function FieldShell({ id, label, className, children }: { id: string; label: ReactNode; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

export const fieldErrorId = (id: string) => `${id}-error`;
