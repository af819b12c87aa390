import { getCollectionProps, getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react';
import type { InputHTMLAttributes, MouseEvent, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { PasswordInput } from '../password-input';
import { FieldShell } from './field-frame';
import { ErrorList } from './messages';
import { OtpInput } from './otp-input';

/**
 * The form kit (issue 8): every form's fields, hints and error lists are written here once, over conform
 * (the form itself: ./use-schema-form; messages: ./messages). A field renders its label, control, hint and
 * errors with the ids wired for screen readers (aria-invalid, aria-describedby naming the error and the hint).
 */

// Each form types its own fields; the kit only reads a field's metadata.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyField = FieldMetadata<any, any, string[]>;

/** The ids a control's aria-describedby names beyond its errors (conform adds the error id itself). */
const hintId = (field: AnyField, hint: ReactNode) => (hint ? field.descriptionId : undefined);

function Hint({ field, hint }: { field: AnyField; hint: ReactNode }) {
  if (!hint) return null;
  return (
    <p className="field-hint" id={field.descriptionId}>
      {hint}
    </p>
  );
}

/** The frame every single-control conform field shares: label, the control, hint, then the errors the control names. */
function FieldFrame({
  field,
  label,
  hint,
  className,
  alert,
  hideErrors,
  children,
}: {
  field: AnyField;
  label: ReactNode;
  hint: ReactNode;
  className?: string;
  alert?: boolean;
  hideErrors?: boolean;
  children: ReactNode;
}) {
  return (
    <FieldShell id={field.id} label={label} className={className}>
      {children}
      <Hint field={field} hint={hint} />
      {hideErrors ? null : <ErrorList id={field.errorId} errors={field.errors} alert={alert} />}
    </FieldShell>
  );
}

/** `file` is for multipart forms: browsers never refill it, so a refused form asks for the file again. */
type InputType = 'text' | 'email' | 'password' | 'number' | 'tel' | 'url' | 'search' | 'date' | 'datetime-local' | 'file';

/** Addresses are typed as they are: no capital first letter, no spelling marks. */
const EMAIL_INPUT = { autoCapitalize: 'none', spellCheck: false } as const;

/** A labelled single-line input; `type="password"` adds the show/hide toggle. */
export function Field({
  field,
  label,
  type = 'text',
  hint,
  className,
  alert,
  errorsAt,
  ...attributes
}: {
  field: AnyField;
  label: ReactNode;
  type?: InputType;
  hint?: ReactNode;
  className?: string;
  /** Announce the field's errors as they appear (fields whose error comes from the server). */
  alert?: boolean;
  /** Errors shown elsewhere (one message for several fields): the control points there instead. */
  errorsAt?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'name' | 'id' | 'defaultValue' | 'form'>) {
  const { key, ...props } = getInputProps(field, { type, ariaDescribedBy: hintId(field, hint) });
  if (errorsAt) props['aria-describedby'] = field.errors ? [errorsAt, hintId(field, hint)].filter(Boolean).join(' ') : hintId(field, hint);
  return (
    <FieldFrame field={field} label={label} hint={hint} className={className} alert={alert} hideErrors={Boolean(errorsAt)}>
      {type === 'password' ? (
        <PasswordInput key={key} {...props} {...attributes} />
      ) : (
        <input key={key} {...props} {...(type === 'email' ? EMAIL_INPUT : null)} {...attributes} />
      )}
    </FieldFrame>
  );
}

/** A labelled multi-line input. */
export function TextareaField({
  field,
  label,
  hint,
  className,
  ...attributes
}: {
  field: AnyField;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
} & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'id' | 'defaultValue' | 'form'>) {
  const { key, ...props } = getTextareaProps(field, { ariaDescribedBy: hintId(field, hint) });
  return (
    <FieldFrame field={field} label={label} hint={hint} className={className}>
        <textarea key={key} {...props} {...attributes} />
    </FieldFrame>
  );
}

/**
 * A labelled one-time-code field (the emailed 6 digits): one input without JS; with `boxes` and JS, six
 * digit boxes. `clearOn` changes when the server refused the code: the field empties for the next try.
 */
export function OtpField({
  field,
  label,
  hint,
  boxes,
  clearOn,
  className,
}: {
  field: AnyField;
  label: ReactNode;
  hint?: ReactNode;
  boxes?: boolean;
  clearOn?: unknown;
  className?: string;
}) {
  const describedBy = [field.errors ? field.errorId : null, hint ? field.descriptionId : null].filter(Boolean).join(' ');
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={field.id} id={`${field.id}-label`}>
        {label}
      </label>
      <OtpInput
        boxes={boxes}
        id={field.id}
        name={field.name}
        labelledBy={`${field.id}-label`}
        defaultValue={field.initialValue}
        invalid={field.errors ? true : undefined}
        describedBy={describedBy || undefined}
        clearOn={clearOn}
      />
      <ErrorList id={field.errorId} errors={field.errors} alert />
      <Hint field={field} hint={hint} />
    </div>
  );
}

export interface Option {
  value: string;
  label: ReactNode;
  /** A second line under a choice's label. */
  hint?: ReactNode;
}

/** A labelled select; `placeholder` is a first, empty option. */
export function SelectField({
  field,
  label,
  options,
  placeholder,
  hint,
  className,
  ...attributes
}: {
  field: AnyField;
  label: ReactNode;
  options: readonly Option[];
  placeholder?: string;
  hint?: ReactNode;
  className?: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'id' | 'defaultValue' | 'form'>) {
  const { key, ...props } = getSelectProps(field, { ariaDescribedBy: hintId(field, hint) });
  return (
    <FieldFrame field={field} label={label} hint={hint} className={className}>
      <select key={key} {...props} {...attributes}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/**
 * Checkboxes (several values) or radio buttons (one) in a fieldset whose legend names the group; the
 * group's errors are named by the fieldset's aria-describedby.
 */
export function ChoiceGroup({
  field,
  legend,
  type,
  options,
  hint,
  className = 'field',
  optionsClassName = 'checkbox-group',
  optionClassName,
  legendClassName = 'label-text',
  errorsSaidOutside = false,
}: {
  field: AnyField;
  legend: ReactNode;
  type: 'checkbox' | 'radio';
  options: readonly Option[];
  hint?: ReactNode;
  className?: string;
  optionsClassName?: string;
  optionClassName?: string;
  legendClassName?: string;
  /**
   * The group is one part of a larger choice (the booking page's days) whose enclosing fieldset shows and
   * references the errors once: the inputs still say they are invalid, this fieldset does not repeat them.
   */
  errorsSaidOutside?: boolean;
}) {
  const inputs = getCollectionProps(field, { type, options: options.map((o) => o.value) });
  const describedBy = [field.errors && !errorsSaidOutside ? field.errorId : null, hint ? field.descriptionId : null].filter(Boolean).join(' ');
  return (
    <fieldset className={className} aria-describedby={describedBy || undefined}>
      <legend className={legendClassName || undefined}>{legend}</legend>
      <div className={optionsClassName}>
        {inputs.map(({ key, ...props }, index) => {
          const option = options[index];
          if (!option) return null;
          return (
            <label key={key} className={optionClassName}>
              <input {...props} />
              {option.hint ? (
                <span>
                  <strong>{option.label}</strong>
                  <span className="small muted">{option.hint}</span>
                </span>
              ) : (
                option.label
              )}
            </label>
          );
        })}
      </div>
      <Hint field={field} hint={hint} />
      {errorsSaidOutside ? null : <ErrorList id={field.errorId} errors={field.errors} />}
    </fieldset>
  );
}

/**
 * The trap for form-filling bots on public forms (ARCHITECTURE §8): a text field people never see or
 * reach (off-screen, out of the tab order, hidden from assistive technology). The schemas refuse a filled
 * one (`honeypotField`); the form then shows only the generic `refusal`, never why.
 */
export function Honeypot({ field, refusal }: { field?: AnyField; refusal: string }) {
  return (
    <>
      <input className="hp-field" name={HONEYPOT_NAME} type="text" tabIndex={-1} autoComplete="off" aria-hidden="true" defaultValue="" />
      {field?.errors ? (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      ) : null}
    </>
  );
}

/** The honeypot's field name: a word bots fill in (app/schemas/fields.ts `honeypotField`). */
export const HONEYPOT_NAME = 'website';

/** A submit button that says it is working while its own submission is under way. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  className = 'button',
  name,
  value,
  disabled,
  onClick,
}: {
  busy: boolean;
  label: ReactNode;
  busyLabel?: ReactNode;
  className?: string;
  name?: string;
  value?: string;
  disabled?: boolean;
  /** With JS only: e.g. to ask before submitting (the form still submits without JS). */
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
}) {
  return (
    <button type="submit" name={name} value={value} className={className} disabled={busy || disabled} onClick={onClick}>
      {busy && busyLabel ? busyLabel : label}
    </button>
  );
}

/**
 * A 1–5 star rating as five radio buttons in a fieldset whose legend names it: arrow keys move between stars,
 * each star's accessible name is its spoken value ("4 stars"), and the stars up to the chosen one fill with CSS
 * alone, so it works the same with JS off. Styles: app/styles/reviews.css.
 */
export function StarRatingField({
  field,
  legend,
  starLabel,
  hint,
  className = 'field star-rating',
}: {
  field: AnyField;
  legend: ReactNode;
  /** The accessible name of the n-star choice. */
  starLabel: (n: number) => string;
  hint?: ReactNode;
  className?: string;
}) {
  const values = ['1', '2', '3', '4', '5'];
  const inputs = getCollectionProps(field, { type: 'radio', options: values });
  const describedBy = [field.errors ? field.errorId : null, hint ? field.descriptionId : null].filter(Boolean).join(' ');
  return (
    <fieldset className={className} aria-describedby={describedBy || undefined}>
      <legend className="label-text">{legend}</legend>
      <div className="star-options">
        {inputs.map(({ key, ...props }, index) => (
          <label key={key} className="star-option">
            <input {...props} />
            <span className="star-glyph" aria-hidden="true">
              ★
            </span>
            <span className="visually-hidden">{starLabel(index + 1)}</span>
          </label>
        ))}
      </div>
      <Hint field={field} hint={hint} />
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}
