import type { FieldDefinition, PageInfo, TextStyle } from '@signet/contract';

/** The font text fields are shown in, and reported with. */
export const TEXT_FONT = { css: 'Helvetica, Arial, "Liberation Sans", sans-serif', name: 'Helvetica' } as const;
/** Text takes this share of its field's height. */
const TEXT_HEIGHT_RATIO = 0.62;
/** The largest font size of a `textarea` field, in points. */
const MAX_TEXTAREA_SIZE = 11;

/**
 * Where a field sits in its page box, as CSS percentages: zooming resizes the box and the field with it.
 * @example fieldBox({ x: 0.1, y: 0.5, width: 0.3, height: 0.05 }) // { left: '10%', top: '50%', … }
 */
export function fieldBox(field: Pick<FieldDefinition, 'x' | 'y' | 'width' | 'height'>) {
  return {
    left: `${field.x * 100}%`,
    top: `${field.y * 100}%`,
    width: `${field.width * 100}%`,
    height: `${field.height * 100}%`,
  };
}

/**
 * The style a field of typed text is shown with, in PDF points (what the submission reports): its font size is the
 * field's `fontSize` where the author set one, else follows the field's height on the page (a multi-line field's
 * stops at 11 pt).
 * @example textStyle(field, 792) // { fontSize: 10, fontFamily: 'Helvetica', textAlign: 'left' }
 */
export function textStyle(
  field: Pick<FieldDefinition, 'height'> & Partial<Pick<FieldDefinition, 'type' | 'fontSize'>>,
  pageHeightPoints: number,
): TextStyle {
  if (field.fontSize !== undefined) return { fontSize: field.fontSize, fontFamily: TEXT_FONT.name, textAlign: 'left' };
  // Multi-line text is set like body text, whatever the box's height.
  const largest = field.type === 'textarea' ? MAX_TEXTAREA_SIZE : 24;
  const fontSize = Math.max(6, Math.min(largest, Math.round(field.height * pageHeightPoints * TEXT_HEIGHT_RATIO * 2) / 2));
  return { fontSize, fontFamily: TEXT_FONT.name, textAlign: 'left' };
}

/**
 * Fields in reading order: by page, then top to bottom, then left to right (fields on one line within a small
 * tolerance count as one line).
 */
export function readingOrder<T extends Pick<FieldDefinition, 'page' | 'x' | 'y'>>(fields: readonly T[]): T[] {
  return [...fields].sort((a, b) => a.page - b.page || (Math.abs(a.y - b.y) > 0.005 ? a.y - b.y : a.x - b.x));
}

/**
 * The page as the contract's `pages` entry reports it: the page's own size in points (before its rotation) and
 * the rotation, from the size as displayed.
 */
export function pageInfo(page: { pageNumber: number; width: number; height: number; rotation: number }): PageInfo {
  const quarterTurn = ((page.rotation % 180) + 180) % 180 === 90;
  return {
    pageNumber: page.pageNumber,
    width: quarterTurn ? page.height : page.width,
    height: quarterTurn ? page.width : page.height,
    rotation: page.rotation,
  };
}
