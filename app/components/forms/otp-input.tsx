import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useHydrated } from '../hydrated';

/** Every emailed code is six digits (SPEC §5). */
export const CODE_LENGTH = 6;

const emptyDigits = () => Array.from({ length: CODE_LENGTH }, () => '');
const toDigits = (value: unknown) => {
  const chars = (typeof value === 'string' ? value.replace(/\D/g, '') : '').slice(0, CODE_LENGTH).split('');
  return emptyDigits().map((_, i) => chars[i] ?? '');
};

/**
 * A one-time code input of the form kit. Server-rendered as one 6-digit text input named `name`, so it
 * works without JS; with `boxes` and JS it becomes six single-digit boxes (auto-advance, backspace goes
 * back, arrows move, paste or autofill of a whole code) that post the same field through a hidden input.
 * A change of `clearOn` (the server refused the code) empties it and puts the cursor back in the first place.
 */
export function OtpInput({
  id,
  name,
  defaultValue,
  invalid,
  describedBy,
  labelledBy,
  boxes = false,
  clearOn,
  className = 'code-single',
}: {
  id: string;
  name: string;
  defaultValue?: unknown;
  invalid?: boolean;
  describedBy?: string;
  /** The label's id: the boxes are a group named by it. */
  labelledBy?: string;
  boxes?: boolean;
  clearOn?: unknown;
  className?: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [digits, setDigits] = useState<string[]>(() => toDigits(defaultValue));
  const single = useRef<HTMLInputElement | null>(null);
  const inputs = useRef<Array<HTMLInputElement | null>>([]);
  const focusBox = (index: number) => {
    const box = inputs.current[Math.max(0, Math.min(CODE_LENGTH - 1, index))];
    box?.focus();
    box?.select();
  };

  useEffect(() => {
    if (!clearOn) return;
    setDigits(emptyDigits());
    if (single.current) single.current.value = '';
    if (boxes) inputs.current[0]?.focus();
  }, [clearOn, boxes]);

  const fill = (start: number, text: string) => {
    const chars = text.replace(/\D/g, '').split('');
    if (chars.length === 0) return;
    setDigits((current) => {
      const next = [...current];
      chars.forEach((c, i) => {
        if (start + i < CODE_LENGTH) next[start + i] = c;
      });
      return next;
    });
    focusBox(start + chars.length);
  };

  const onChange = (index: number, value: string) => {
    const clean = value.replace(/\D/g, '');
    if (clean.length === CODE_LENGTH) return fill(0, clean); // autofill of a whole one-time code
    if (clean.length === 0) {
      setDigits((current) => current.map((d, i) => (i === index ? '' : d)));
      return;
    }
    fill(index, clean.length > 1 ? clean.slice(-1) : clean);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && !digits[index] && index > 0) {
      event.preventDefault();
      setDigits((current) => current.map((d, i) => (i === index - 1 ? '' : d)));
      focusBox(index - 1);
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight' && index < CODE_LENGTH - 1) {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  // Paste accepts exactly six digits (SPEC §5); anything else is ignored.
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const text = event.clipboardData.getData('text').trim();
    if (/^\d{6}$/.test(text)) {
      setDigits(text.split(''));
      focusBox(CODE_LENGTH - 1);
    }
  };

  if (boxes && hydrated) {
    return (
      <div className="code-boxes" role="group" aria-labelledby={labelledBy}>
        {digits.map((digit, index) => (
          <input
            key={index}
            ref={(el) => {
              inputs.current[index] = el;
            }}
            id={index === 0 ? id : undefined}
            className="code-box"
            type="text"
            inputMode="numeric"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            pattern="[0-9]*"
            aria-label={t('auth.code.digit', { index: index + 1 })}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            value={digit}
            onChange={(e) => onChange(index, e.currentTarget.value)}
            onKeyDown={(e) => onKeyDown(index, e)}
            onPaste={onPaste}
            onFocus={(e) => e.currentTarget.select()}
          />
        ))}
        <input type="hidden" name={name} value={digits.join('')} />
      </div>
    );
  }
  return (
    <input
      ref={single}
      id={id}
      name={name}
      className={className}
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={CODE_LENGTH}
      defaultValue={typeof defaultValue === 'string' ? defaultValue : ''}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
    />
  );
}
