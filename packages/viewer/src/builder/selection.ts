import type { FieldDefinition } from '@signet/contract';
import { clampRect, nextFieldId, type PageSize } from './field-edits.js';

/**
 * Several fields at once (docs/decisions.md, "Builder: several fields, copy and paste, touch"): moving a selection
 * together, and copies of fields with fresh ids. Plain functions of the field list; each answer is one edit.
 */

/** A page's size in points, by page number (undefined while its size is not known). */
export type SizeOf = (page: number) => PageSize | undefined;

/** How far (points, right and down) a paste or a duplicate lands from what it copies. */
export const PASTE_OFFSET = 10;

/** `ids` with `id` added (at the end) or, when it was there, taken out. */
export const toggleId = (ids: readonly string[], id: string) => (ids.includes(id) ? ids.filter((each) => each !== id) : [...ids, id]);

/**
 * `dx`, `dy` (points) shortened so that every one of `moving` stays on its page: a selection moves as one, keeping
 * its shape, and stops when its first field meets an edge.
 */
export function groupDelta(moving: readonly FieldDefinition[], dx: number, dy: number, sizeOf: SizeOf): [number, number] {
  let [minX, maxX, minY, maxY] = [-Infinity, Infinity, -Infinity, Infinity];
  for (const field of moving) {
    const size = sizeOf(field.page);
    if (!size) continue;
    minX = Math.max(minX, Math.min(0, -field.x * size.width));
    maxX = Math.min(maxX, Math.max(0, (1 - field.x - field.width) * size.width));
    minY = Math.max(minY, Math.min(0, -field.y * size.height));
    maxY = Math.min(maxY, Math.max(0, (1 - field.y - field.height) * size.height));
  }
  return [Math.min(Math.max(dx, minX), maxX), Math.min(Math.max(dy, minY), maxY)];
}

/**
 * `fields` with those of `ids` moved together by `dx`, `dy` points (see `groupDelta`); `fields` itself when nothing
 * moves, so that no step of undo is made.
 */
export function moveGroup(fields: FieldDefinition[], ids: readonly string[], dx: number, dy: number, sizeOf: SizeOf): FieldDefinition[] {
  const moving = fields.filter((field) => ids.includes(field.id));
  const [mx, my] = groupDelta(moving, dx, dy, sizeOf);
  // Less than a thousandth of a point (a field already at the edge): no change, no step of undo.
  if (moving.length === 0 || (Math.abs(mx) < 1e-3 && Math.abs(my) < 1e-3)) return fields;
  return fields.map((field) => {
    const size = ids.includes(field.id) && sizeOf(field.page);
    return size ? { ...field, ...clampRect({ ...field, x: field.x + mx / size.width, y: field.y + my / size.height }) } : field;
  });
}

/**
 * Copies of `sources`, each on the page `to` names for it, moved by its `dx`, `dy` points and kept on that page,
 * with ids not used by `existing` nor by each other (`nextFieldId`). Everything else (label, signer, options) is
 * the source's.
 */
export function copyFields(
  sources: readonly FieldDefinition[],
  existing: readonly FieldDefinition[],
  to: (field: FieldDefinition) => { page: number; dx: number; dy: number },
  sizeOf: SizeOf,
): FieldDefinition[] {
  const made: FieldDefinition[] = [];
  for (const source of sources) {
    const { page, dx, dy } = to(source);
    const size = sizeOf(page);
    const rect = size ? clampRect({ ...source, x: source.x + dx / size.width, y: source.y + dy / size.height }) : {};
    made.push({ ...source, ...rect, page, id: nextFieldId(source.type, [...existing, ...made]) });
  }
  return made;
}

/**
 * Copies of `sources` at the same place (the same fractions) on every other page of a `pageCount`-page document;
 * a page that already has a field of the same type at that place gets none, so doing it twice adds nothing.
 */
export function onEveryPage(sources: readonly FieldDefinition[], existing: readonly FieldDefinition[], pageCount: number): FieldDefinition[] {
  const made: FieldDefinition[] = [];
  for (const source of sources) {
    for (let page = 1; page <= pageCount; page += 1) {
      const there = (field: FieldDefinition) =>
        field.page === page && field.type === source.type && field.x === source.x && field.y === source.y && field.width === source.width && field.height === source.height;
      if (page === source.page || existing.some(there) || made.some(there)) continue;
      made.push({ ...source, page, id: nextFieldId(source.type, [...existing, ...made]) });
    }
  }
  return made;
}
