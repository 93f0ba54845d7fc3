import { codePointCount, dataUrlByteLength } from './field-values.js';
import type { FieldDefinition, FieldValue } from './schemas/field.js';
import { SUBMISSION_LIMITS } from './submission-limits.js';

/**
 * Whether `content` is a real calendar date written `YYYY-MM-DD`.
 * @example isIsoDate('2024-02-29') // true; isIsoDate('2023-02-29') // false
 */
export function isIsoDate(content: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(content);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * What is wrong with a value a signer entered, as a code the viewer words in the signer's language (with `params`
 * filled into its message) and as the `reason` the server's 422 gives.
 */
export interface ValueProblem {
  code:
    | 'tooLong'
    | 'tooShort'
    | 'pattern'
    | 'email'
    | 'phone'
    | 'number'
    | 'min'
    | 'max'
    | 'step'
    | 'option'
    | 'date'
    | 'image';
  reason: string;
  /** The member of the value it is about: `content`, `value` or `imageData`. */
  member: 'content' | 'value' | 'imageData';
  /** The limit broken (`count` characters, `min`, `max`, `step`), for the message. */
  params?: Readonly<Record<string, number>>;
}

/** The longest email address that can be delivered (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254;
/** The longest phone number with its spaces and punctuation, and how many digits it has (ITU E.164: at most 15). */
export const PHONE_LIMITS = { maxLength: 32, minDigits: 5, maxDigits: 15 } as const;
/** The longest number a `number` field takes, in characters. */
export const MAX_NUMBER_LENGTH = 40;

// WHATWG's "valid e-mail address", with a dot required in the domain: what a signer can be written to.
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
// Digits with the usual separators, an optional leading +.
const PHONE = /^\+?[0-9 ().\-]+$/;
// HTML's "valid floating-point number".
const DECIMAL = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

const TEXT_TYPES = new Set<FieldValue['type']>(['text', 'email', 'phone', 'textarea']);
const compiled = new Map<string, RegExp | null>();

/**
 * A field's `validation.pattern` as the regular expression the whole value must match (as HTML's `pattern`, with
 * the `u` flag), or null when it is not a valid expression. Compiled once per pattern.
 * @example fieldPattern('[A-Z]{2}[0-9]{4}')?.test('AB1234') // true
 */
export function fieldPattern(pattern: string): RegExp | null {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    try {
      regex = new RegExp(`^(?:${pattern})$`, 'u');
    } catch {
      regex = null;
    }
    compiled.set(pattern, regex);
  }
  return regex;
}

/**
 * The first rule `value` breaks of those its field keeps (docs/api.md, "Submit"): the length limits, `pattern`, an
 * email address, a phone number, a number within `min`/`max` on its `step`, one of the field's options, a real
 * `YYYY-MM-DD` date, an image within the size limit. A blank value breaks none (whether a value is required is
 * `hasValue`'s concern). `imageIssue` inspects an image's bytes; the default checks its decoded size only.
 * @example fieldValueProblem({ type: 'number', validation: { max: 10 } } as FieldDefinition, { type: 'number', content: '12' })
 * // { code: 'max', member: 'content', reason: 'must be at most 10', params: { max: 10 } }
 */
export function fieldValueProblem(
  definition: Pick<FieldDefinition, 'validation' | 'options'>,
  value: FieldValue,
  imageIssue: (imageData: string) => string | null = imageSizeIssue,
): ValueProblem | null {
  switch (value.type) {
    case 'text':
    case 'email':
    case 'phone':
    case 'textarea':
      return textProblem(definition, value.type, value.content);
    case 'date':
      if (codePointCount(value.content, SUBMISSION_LIMITS.maxTextLength) > SUBMISSION_LIMITS.maxTextLength) {
        return tooLong(SUBMISSION_LIMITS.maxTextLength);
      }
      return value.content.trim() !== '' && !isIsoDate(value.content)
        ? { code: 'date', member: 'content', reason: 'must be a real date written YYYY-MM-DD' }
        : null;
    case 'number':
      return numberProblem(definition, value.content);
    case 'select':
    case 'radio':
      return value.value === '' || definition.options?.some((option) => option.value === value.value)
        ? null
        : { code: 'option', member: 'value', reason: 'must be the value of one of the field\'s options' };
    case 'signature':
    case 'initials':
    case 'image': {
      const reason = imageIssue(value.imageData);
      return reason ? { code: 'image', member: 'imageData', reason } : null;
    }
    case 'checkbox':
      return null;
  }
}

function textProblem(
  definition: Pick<FieldDefinition, 'validation'>,
  type: 'text' | 'email' | 'phone' | 'textarea',
  content: string,
): ValueProblem | null {
  const rules = definition.validation ?? {};
  const max = Math.min(rules.maxLength ?? Infinity, SUBMISSION_LIMITS.maxTextLength);
  // Counted in code points, and only as far as needed: a limit costs no more than the limit.
  const length = codePointCount(content, Math.max(max, rules.minLength ?? 0));
  if (length > max) return tooLong(max);
  if (content.trim() === '') return null;
  if (rules.minLength !== undefined && length < rules.minLength) {
    const count = rules.minLength;
    return { code: 'tooShort', member: 'content', reason: `must be at least ${count} characters`, params: { count } };
  }
  if (type === 'email' && (content.length > MAX_EMAIL_LENGTH || !EMAIL.test(content))) {
    return { code: 'email', member: 'content', reason: 'must be an email address such as name@example.com' };
  }
  if (type === 'phone' && !isPhoneNumber(content)) {
    const { minDigits, maxDigits } = PHONE_LIMITS;
    return { code: 'phone', member: 'content', reason: `must be a phone number of ${minDigits} to ${maxDigits} digits` };
  }
  if (rules.pattern !== undefined && !fieldPattern(rules.pattern)?.test(content)) {
    return { code: 'pattern', member: 'content', reason: rules.message ?? 'does not match the field\'s pattern' };
  }
  return null;
}

function isPhoneNumber(content: string): boolean {
  if (content.length > PHONE_LIMITS.maxLength || !PHONE.test(content.trim())) return false;
  const digits = content.replace(/\D/g, '').length;
  return digits >= PHONE_LIMITS.minDigits && digits <= PHONE_LIMITS.maxDigits;
}

function numberProblem(definition: Pick<FieldDefinition, 'validation'>, content: string): ValueProblem | null {
  if (content.trim() === '') return null;
  if (content.length > MAX_NUMBER_LENGTH || !DECIMAL.test(content) || !Number.isFinite(Number(content))) {
    return { code: 'number', member: 'content', reason: 'must be a number such as 42 or -0.5' };
  }
  const number = Number(content);
  const { min, max, step } = definition.validation ?? {};
  if (min !== undefined && number < min) return { code: 'min', member: 'content', reason: `must be at least ${min}`, params: { min } };
  if (max !== undefined && number > max) return { code: 'max', member: 'content', reason: `must be at most ${max}`, params: { max } };
  if (step !== undefined && !onStep(number, min ?? 0, step)) {
    return { code: 'step', member: 'content', reason: `must be ${min ?? 0} plus a multiple of ${step}`, params: { step } };
  }
  return null;
}

/** Whether `number` is `base` plus a whole number of `step`s, allowing for binary rounding (0.3 on a 0.1 step). */
function onStep(number: number, base: number, step: number): boolean {
  const steps = (number - base) / step;
  return Math.abs(steps - Math.round(steps)) <= 1e-9 * Math.max(1, Math.abs(steps));
}

function tooLong(count: number): ValueProblem {
  return { code: 'tooLong', member: 'content', reason: `must be at most ${count} characters`, params: { count } };
}

function imageSizeIssue(imageData: string): string | null {
  const mib = SUBMISSION_LIMITS.maxImageBytes / (1024 * 1024);
  return dataUrlByteLength(imageData) > SUBMISSION_LIMITS.maxImageBytes ? `image is larger than ${mib} MiB once decoded` : null;
}

/** Whether a field type holds text a signer types (and so takes `minLength`, `maxLength` and `pattern`). */
export function isTextType(type: FieldValue['type']): boolean {
  return TEXT_TYPES.has(type);
}
