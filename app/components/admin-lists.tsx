/* The admin list pages' pieces (issue 22): a filter select and a filter text box for GET forms, and the row count. */
import type { ReactNode } from 'react';
import { FieldFrame, fieldErrorId } from '~/components/forms/field-frame';

/** A labelled select of a GET filter form; the first option (empty value) means "any". */
export function FilterSelect({
  id,
  name,
  label,
  value,
  anyLabel,
  options,
}: {
  id: string;
  name: string;
  label: ReactNode;
  value: string;
  anyLabel?: string;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <FieldFrame id={id} label={label}>
      <select id={id} name={name} defaultValue={value}>
        {anyLabel !== undefined ? <option value="">{anyLabel}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/**
 * A labelled text, search, number or date box of a GET filter form; `hint` under it says what it takes, `error`
 * (translated) says why the value was not used, and the value typed stays in the box.
 */
export function FilterInput({
  id,
  name,
  label,
  value,
  type = 'text',
  maxLength = 100,
  hint,
  error,
}: {
  id: string;
  name: string;
  label: ReactNode;
  value: string;
  type?: 'text' | 'search' | 'date' | 'number';
  maxLength?: number;
  hint?: string;
  error?: string;
}) {
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, error ? fieldErrorId(id) : null].filter(Boolean).join(' ') || undefined;
  return (
    <FieldFrame id={id} label={label} error={error}>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={value}
        maxLength={type === 'date' || type === 'number' ? undefined : maxLength}
        min={type === 'number' ? 1 : undefined}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
      />
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </FieldFrame>
  );
}

/** The search params of a list's filters without empty values and without the page (pagination links add it). */
export function filterParams(values: Record<string, string | number | null | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== null && value !== undefined && value !== '' && key !== 'page') params.set(key, String(value));
  return params;
}
