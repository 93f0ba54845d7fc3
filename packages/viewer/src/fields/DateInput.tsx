import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslator } from '../i18n/LocaleContext.js';
import { formatIsoDate } from './iso-date.js';

export interface DateInputProps {
  /** An ISO 8601 date (`YYYY-MM-DD`), or `''`. */
  value: string;
  /** Receives the ISO 8601 date the signer entered or picked (`''` while it is incomplete or cleared). */
  onChange(value: string): void;
  className?: string;
  style?: CSSProperties;
  readOnly?: boolean;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-required'?: boolean;
  'aria-invalid'?: boolean;
  'data-signet-field'?: string;
}

/**
 * A date field shown in the viewer's locale (`22.11.2026`, `22 nov. 2026`, `٢٢‏/١١‏/٢٠٢٦`) that holds and emits ISO
 * 8601 (`2026-11-22`). It is the browser's own date input, so its picker and keyboard entry stay: while it has the
 * focus, the browser's segments (in the browser's language) are edited; otherwise the date written the locale's
 * way covers them. Screen readers get that text as part of the field's description.
 * @example <DateInput aria-label="Date" value={iso} onChange={setIso} className="signet-input" />
 */
export function DateInput({ value, onChange, className, style, 'aria-describedby': describedBy, ...attributes }: DateInputProps) {
  const { locale } = useTranslator();
  const [editing, setEditing] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const displayRef = useRef<HTMLSpanElement>(null);
  const displayId = useId();
  const shown = value ? formatIsoDate(value, locale) : null;
  const covering = shown !== null && !editing;

  // The text sits where the input's own would, in its font, whatever styles the page or the host gave the input.
  useLayoutEffect(() => {
    const input = inputRef.current;
    const display = displayRef.current;
    if (!input || !display) return;
    const computed = getComputedStyle(input);
    for (const property of ['fontFamily', 'fontSize', 'fontWeight', 'fontStyle'] as const) display.style[property] = computed[property];
    display.style.paddingInlineStart = `calc(${computed.paddingInlineStart} + ${computed.borderInlineStartWidth})`;
  });

  // The input's own focus and blur, not React's onFocus/onBlur: React listens for focusin and focusout, which WebKit
  // does not fire for a date input (its segments take the focus inside it), so the text would cover them while the
  // signer edits them in Safari.
  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    const focus = () => setEditing(true);
    const blur = () => setEditing(false);
    input.addEventListener('focus', focus);
    input.addEventListener('blur', blur);
    return () => {
      input.removeEventListener('focus', focus);
      input.removeEventListener('blur', blur);
    };
  }, []);

  return (
    <span className="signet-date" data-covered={covering || undefined}>
      <input
        {...attributes}
        ref={inputRef}
        type="date"
        className={className}
        style={style}
        value={value}
        autoComplete="off"
        aria-describedby={[describedBy, shown === null ? undefined : displayId].filter(Boolean).join(' ') || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {shown !== null && (
        <span ref={displayRef} id={displayId} className="signet-date-display" aria-hidden="true">
          {shown}
        </span>
      )}
    </span>
  );
}
