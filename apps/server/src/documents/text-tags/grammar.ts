/**
 * The grammar of text tags (docs/text-tags.md): `{{type;key=value;flag…}}`, parsed without any PDF in sight.
 * A tag's items are separated by `;`; the first is the field type, each other one is `key=value` or a bare flag.
 * A backslash makes the next character literal (`\;`, `\}`, `\|`, `\:`, `\\`), in values and options alike.
 */
import { FIELD_TYPES, FieldIdSchema, type FieldOption, type FieldType } from '@signet/contract';

/** What a tag asks for, before it has a place on a page. */
export interface TextTag {
  type: FieldType;
  signerId?: string;
  required: boolean;
  /** `readonly`: the field is not editable (`editable: false`). */
  readonly: boolean;
  label?: string;
  id?: string;
  placeholder?: string;
  options?: FieldOption[];
  /** The field's size in points, in place of the tag's own box. */
  width?: number;
  height?: number;
  fontSize?: number;
}

export type TagParse = { ok: true; tag: TextTag } | { ok: false; reason: string };

/** The types that take `options` (docs/api.md, "Fields"). */
const CHOICE_TYPES: ReadonlySet<FieldType> = new Set(['select', 'radio']);
/** The types whose value is written as text, and so take `fontSize` (docs/api.md, "Fields"). */
const FONT_SIZE_TYPES: ReadonlySet<FieldType> = new Set(['text', 'date', 'number', 'email', 'phone', 'textarea', 'select', 'radio']);
const TYPES: ReadonlySet<string> = new Set(FIELD_TYPES);
const KEYS = ['signer', 'label', 'id', 'placeholder', 'options', 'width', 'height', 'fontSize'] as const;
const FLAGS = ['required', 'readonly'] as const;
type Key = (typeof KEYS)[number];

/** The longest tag, `{{` and `}}` included: past it, an opening `{{` is refused as unterminated. */
export const MAX_TAG_LENGTH = 2000;
/** The most options of a select or radio (the contract's limit). */
const MAX_OPTIONS = 50;
/** The largest `width` or `height`, in points: PDF's own largest page side (ISO 32000-1, Annex C). */
const MAX_SIZE_POINTS = 14_400;

/** The label a field gets when its tag names none. */
export const DEFAULT_LABELS: Record<FieldType, string> = {
  text: 'Text',
  signature: 'Signature',
  initials: 'Initials',
  date: 'Date',
  checkbox: 'Checkbox',
  number: 'Number',
  email: 'Email',
  phone: 'Phone',
  textarea: 'Text',
  select: 'Choice',
  radio: 'Choice',
  image: 'Image',
};

/**
 * Where the tag that starts at `start` (at its `{{`) ends: the index just past its closing `}}`, skipping escaped
 * characters; `undefined` when no `}}` follows within `MAX_TAG_LENGTH`.
 * @example tagEnd('a {{date}} b', 2) // 10
 */
export function tagEnd(text: string, start: number): number | undefined {
  const limit = Math.min(text.length, start + MAX_TAG_LENGTH);
  for (let i = start + 2; i < limit; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '}' && text[i + 1] === '}') return i + 2;
  }
  return undefined;
}

/**
 * Parses one tag, `{{` and `}}` included, into what it asks for, or the reason it is not a tag.
 * @example parseTag('{{signature;signer=tenant;required}}') // { ok: true, tag: { type: 'signature', signerId: 'tenant', required: true, readonly: false } }
 * @example parseTag('{{sigature}}') // { ok: false, reason: 'unknown type "sigature"' }
 */
export function parseTag(source: string): TagParse {
  if (!source.startsWith('{{') || !source.endsWith('}}') || source.length < 4) return fail('a tag is written {{type;…}}');
  const items = splitUnescaped(source.slice(2, -2), ';');
  const type = unescape(items[0]!).trim();
  if (type === '') return fail('the tag names no type');
  if (!TYPES.has(type)) return fail(`unknown type "${type}" (one of ${FIELD_TYPES.join(', ')})`);
  const tag: TextTag = { type: type as FieldType, required: false, readonly: false };
  const seen = new Set<string>();
  for (const item of items.slice(1)) {
    const equals = indexOfUnescaped(item, '=');
    const name = unescape(equals < 0 ? item : item.slice(0, equals)).trim();
    if (name === '' && equals < 0 && item.trim() === '') continue; // a trailing or doubled `;`
    if (seen.has(name)) return fail(`"${name}" is given twice`);
    seen.add(name);
    if ((FLAGS as readonly string[]).includes(name)) {
      if (equals >= 0) return fail(`"${name}" is a flag and takes no value`);
      if (name === 'required') tag.required = true;
      else tag.readonly = true;
      continue;
    }
    if (!(KEYS as readonly string[]).includes(name)) return fail(`unknown option "${name}" (one of ${[...KEYS, ...FLAGS].join(', ')})`);
    if (equals < 0) return fail(`"${name}" needs a value: ${name}=…`);
    const problem = setOption(tag, name as Key, item.slice(equals + 1));
    if (problem) return fail(problem);
  }
  if (CHOICE_TYPES.has(tag.type) && !tag.options) return fail(`a ${tag.type} needs options=a|b|c`);
  if (tag.options && !CHOICE_TYPES.has(tag.type)) return fail(`a ${tag.type} takes no options (only select and radio do)`);
  if (tag.fontSize !== undefined && !FONT_SIZE_TYPES.has(tag.type)) return fail(`a ${tag.type} takes no fontSize`);
  return { ok: true, tag };
}

function setOption(tag: TextTag, name: Key, raw: string): string | undefined {
  if (name === 'options') {
    const options = parseOptions(raw);
    if (typeof options === 'string') return options;
    tag.options = options;
    return undefined;
  }
  const value = unescape(raw).trim();
  switch (name) {
    case 'signer':
    case 'id': {
      if (!FieldIdSchema.safeParse(value).success) return `${name} "${value}" must be 1 to 64 letters, digits or _ . : -`;
      if (name === 'id') tag.id = value;
      else tag.signerId = value;
      return undefined;
    }
    case 'label':
      if (value.length < 1 || value.length > 200) return 'label must be 1 to 200 characters';
      tag.label = value;
      return undefined;
    case 'placeholder':
      if (value.length > 200) return 'placeholder must be at most 200 characters';
      tag.placeholder = value;
      return undefined;
    case 'width':
    case 'height': {
      const points = decimal(value);
      if (points === undefined || points <= 0 || points > MAX_SIZE_POINTS) return `${name} must be a number of points above 0 and at most ${MAX_SIZE_POINTS}`;
      tag[name] = points;
      return undefined;
    }
    case 'fontSize': {
      const size = decimal(value);
      if (size === undefined || size < 4 || size > 72) return 'fontSize must be a number of points from 4 to 72';
      tag.fontSize = size;
      return undefined;
    }
  }
}

/** `a|b|c`, each option `value` or `value:Label`. */
function parseOptions(raw: string): FieldOption[] | string {
  const options: FieldOption[] = [];
  const values = new Set<string>();
  for (const item of splitUnescaped(raw, '|')) {
    const colon = indexOfUnescaped(item, ':');
    const value = unescape(colon < 0 ? item : item.slice(0, colon)).trim();
    const label = colon < 0 ? value : unescape(item.slice(colon + 1)).trim();
    if (value === '' || label === '') return 'options must not be empty: options=a|b|c or options=a:First|b:Second';
    if (value.length > 200 || label.length > 200) return 'an option\'s value and label must be at most 200 characters';
    if (values.has(value)) return `option "${value}" is given twice`;
    values.add(value);
    options.push({ value, label });
  }
  if (options.length > MAX_OPTIONS) return `at most ${MAX_OPTIONS} options`;
  return options;
}

/** A plain decimal such as `12` or `40.5`: no exponent, no hex, no `Infinity`. */
function decimal(text: string): number | undefined {
  return /^\d+(\.\d+)?$|^\.\d+$/.test(text) ? Number(text) : undefined;
}

/** Splits on `separator` where it is not escaped; the parts keep their escapes. */
function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === separator) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}

function indexOfUnescaped(text: string, char: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === char) return i;
  }
  return -1;
}

/** Drops each escaping backslash: `\x` is `x`, whatever `x` is. */
function unescape(text: string): string {
  return text.replace(/\\(.?)/gs, '$1');
}

function fail(reason: string): TagParse {
  return { ok: false, reason };
}
