import type { FieldDefinition, FieldType } from '@signet/contract';

/**
 * The 12 field types in the palette's order (the contract's `FIELD_TYPES`, which lives beside its zod schemas: a page
 * that builds must not download zod for a list of names; `field-edits.test.ts` checks the two agree).
 */
export const FIELD_TYPES = [
  'text', 'signature', 'initials', 'date', 'checkbox', 'number', 'email', 'phone', 'textarea', 'select', 'radio', 'image',
] as const satisfies readonly FieldType[];

/** A page's displayed size in PDF points: what one point is, as a fraction of the page. */
export interface PageSize {
  width: number;
  height: number;
}

/** The rectangle of a field in page fractions, y from the top (docs/api.md, "Fields"). */
export type FieldRect = Pick<FieldDefinition, 'x' | 'y' | 'width' | 'height'>;

/** A new field's size in points, by type: what a person writes or signs in it, on a Letter or A4 page. */
const DEFAULT_SIZE: Record<FieldType, PageSize> = {
  text: { width: 180, height: 22 },
  signature: { width: 180, height: 48 },
  initials: { width: 72, height: 36 },
  date: { width: 110, height: 22 },
  checkbox: { width: 16, height: 16 },
  number: { width: 100, height: 22 },
  email: { width: 200, height: 22 },
  phone: { width: 140, height: 22 },
  textarea: { width: 260, height: 72 },
  select: { width: 160, height: 22 },
  radio: { width: 140, height: 54 },
  image: { width: 150, height: 110 },
};

/** A field is never smaller than this, in points: its handles must stay apart. */
export const MIN_SIZE_POINTS = 8;

const CHOICE_TYPES: ReadonlySet<FieldType> = new Set(['select', 'radio']);

/** Whether a field of `type` takes `options`. */
export const isChoice = (type: FieldType) => CHOICE_TYPES.has(type);

/** The field types in the palette's order: those of `allowed` (every type when not given), each once. */
export function paletteTypes(allowed?: readonly FieldType[]): FieldType[] {
  return FIELD_TYPES.filter((type) => !allowed || allowed.includes(type));
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);
/** Fractions are stored to 6 decimals (well under a hundredth of a point), so saved drafts stay readable. */
const round = (value: number) => Math.round(value * 1e6) / 1e6;

/** `rect` kept inside its page, as rounded fractions. */
export function clampRect(rect: FieldRect): FieldRect {
  const width = clamp(rect.width, 0, 1);
  const height = clamp(rect.height, 0, 1);
  return {
    x: round(clamp(rect.x, 0, 1 - width)),
    y: round(clamp(rect.y, 0, 1 - height)),
    width: round(width),
    height: round(height),
  };
}

/** An id of the form `signature-2` not yet used by `fields`. */
export function nextFieldId(type: FieldType, fields: readonly FieldDefinition[]): string {
  const used = new Set(fields.map((field) => field.id));
  let n = 1;
  while (used.has(`${type}-${n}`)) n += 1;
  return `${type}-${n}`;
}

/**
 * A new field of `type` centred on `centre` (page fractions) of page `page`, kept inside the page, with a label
 * (`label`, numbered after the fields of its type) and, for a choice field, two options to start from.
 * @example newField({ type: 'signature', page: 1, centre: { x: 0.5, y: 0.8 }, size: { width: 612, height: 792 }, fields: [], label: 'Signature' })
 */
export function newField(input: {
  type: FieldType;
  page: number;
  centre: { x: number; y: number };
  size: PageSize;
  fields: readonly FieldDefinition[];
  label: string;
  optionLabel?: string;
  signerId?: string;
}): FieldDefinition {
  const { type, page, centre, size, fields } = input;
  const points = DEFAULT_SIZE[type];
  const width = Math.min(points.width / size.width, 1);
  const height = Math.min(points.height / size.height, 1);
  const count = fields.filter((field) => field.type === type).length + 1;
  const field: FieldDefinition = {
    id: nextFieldId(type, fields),
    type,
    page,
    ...clampRect({ x: centre.x - width / 2, y: centre.y - height / 2, width, height }),
    required: type === 'signature' || type === 'initials',
    editable: true,
    label: count === 1 ? input.label : `${input.label} ${count}`,
  };
  if (isChoice(type)) {
    const option = input.optionLabel ?? 'Option';
    field.options = [1, 2].map((n) => ({ value: `${option} ${n}`, label: `${option} ${n}` }));
  }
  if (input.signerId) field.signerId = input.signerId;
  return field;
}

/** `field` moved by `dx`, `dy` points, kept on its page. */
export function moveBy(field: FieldDefinition, dx: number, dy: number, size: PageSize): FieldDefinition {
  return { ...field, ...clampRect({ ...field, x: field.x + dx / size.width, y: field.y + dy / size.height }) };
}

/** `field` made `dw`, `dh` points wider and taller (its top-left corner stays), kept on its page and above the minimum. */
export function resizeBy(field: FieldDefinition, dw: number, dh: number, size: PageSize): FieldDefinition {
  const width = Math.max(field.width + dw / size.width, MIN_SIZE_POINTS / size.width);
  const height = Math.max(field.height + dh / size.height, MIN_SIZE_POINTS / size.height);
  return { ...field, ...clampRect({ ...field, width: Math.min(width, 1 - field.x), height: Math.min(height, 1 - field.y) }) };
}

/** Which edges a resize handle moves: `n`orth, `e`ast, `s`outh, `w`est, or two of them at a corner. */
export type Handle = 'n' | 'e' | 's' | 'w' | 'ne' | 'nw' | 'se' | 'sw';
export const HANDLES: readonly Handle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/**
 * `start` with the edges of `handle` moved by `dx`, `dy` (page fractions), never past the opposite edge's minimum
 * distance, kept on the page: what dragging a resize handle does.
 */
export function dragHandle(start: FieldRect, handle: Handle, dx: number, dy: number, size: PageSize): FieldRect {
  const minW = MIN_SIZE_POINTS / size.width;
  const minH = MIN_SIZE_POINTS / size.height;
  let left = start.x;
  let top = start.y;
  let right = start.x + start.width;
  let bottom = start.y + start.height;
  if (handle.includes('w')) left = clamp(left + dx, 0, right - minW);
  if (handle.includes('e')) right = clamp(right + dx, left + minW, 1);
  if (handle.includes('n')) top = clamp(top + dy, 0, bottom - minH);
  if (handle.includes('s')) bottom = clamp(bottom + dy, top + minH, 1);
  return clampRect({ x: left, y: top, width: right - left, height: bottom - top });
}

/** A field's rectangle in points, rounded for showing. */
export function inPoints(field: FieldRect, size: PageSize) {
  const pt = (value: number) => Math.round(value * 10) / 10;
  return { x: pt(field.x * size.width), y: pt(field.y * size.height), width: pt(field.width * size.width), height: pt(field.height * size.height) };
}
