import type { FieldDefinition } from '@signet/contract';
import { describe, expect, it } from 'vitest';
import { copyFields, groupDelta, moveGroup, onEveryPage, PASTE_OFFSET, toggleId } from './selection.js';

const LETTER = { width: 612, height: 792 };
const A4 = { width: 595, height: 842 };
const sizeOf = (page: number) => (page === 3 ? A4 : LETTER);
const field = (id: string, overrides: Partial<FieldDefinition> = {}): FieldDefinition => ({
  id,
  type: 'text',
  page: 1,
  x: 0.1,
  y: 0.2,
  width: 0.3,
  height: 0.05,
  required: false,
  editable: true,
  label: id,
  ...overrides,
});

describe('several fields at once', () => {
  it('toggles an id in the selection, keeping the order fields were selected in', () => {
    expect(toggleId(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggleId(['a', 'b'], 'a')).toEqual(['b']);
  });

  it('moves a selection together, by points of each page, stopping when its first field meets an edge', () => {
    const fields = [field('a'), field('b', { x: 0.6, page: 3 }), field('c', { x: 0.9, width: 0.05 })];
    const moved = moveGroup(fields, ['a', 'b'], 10, -5, sizeOf);
    expect(moved[0]!.x).toBeCloseTo(0.1 + 10 / 612, 6);
    expect(moved[0]!.y).toBeCloseTo(0.2 - 5 / 792, 6);
    expect(moved[1]!.x).toBeCloseTo(0.6 + 10 / 595, 6);
    expect(moved[1]!.y).toBeCloseTo(0.2 - 5 / 842, 6);
    expect(moved[2]).toBe(fields[2]);
    // b's right edge is 0.1 of A4 from the page's: the group stops there, and a keeps its distance to b.
    const [dx] = groupDelta([fields[0]!, fields[1]!], 1000, 0, sizeOf);
    expect(dx).toBeCloseTo(0.1 * 595, 6);
    const far = moveGroup(fields, ['a', 'b'], 1000, 0, sizeOf);
    expect(far[1]!.x + far[1]!.width).toBeCloseTo(1, 6);
    expect(far[0]!.x).toBeCloseTo(0.1 + (0.1 * 595) / 612, 6);
    // Already at the edge: nothing moves, and the list is the same list (no step of undo).
    expect(moveGroup(far, ['a', 'b'], 5, 0, sizeOf)).toBe(far);
  });

  it('copies fields onto a page, offset in points and kept on it, with fresh ids and everything else as it was', () => {
    const source = field('text-1', { signerId: 'tenant', required: true, x: 0.95, width: 0.05 });
    const other = field('signature-1', { type: 'signature', page: 2 });
    const existing = [source, other, field('text-2')];
    const made = copyFields([source, other], existing, () => ({ page: 3, dx: PASTE_OFFSET, dy: PASTE_OFFSET }), sizeOf);
    expect(made.map((each) => [each.id, each.page])).toEqual([['text-3', 3], ['signature-2', 3]]);
    expect(made[0]).toMatchObject({ signerId: 'tenant', required: true, label: 'text-1', x: 0.95, width: 0.05 });
    expect(made[0]!.y).toBeCloseTo(0.2 + 10 / 842, 6);
    expect(made[1]!.x).toBeCloseTo(0.1 + 10 / 595, 6);
    const twice = copyFields([source, source], existing, (each) => ({ page: each.page, dx: 0, dy: 0 }), sizeOf);
    expect(twice.map((each) => each.id)).toEqual(['text-3', 'text-4']);
  });

  it('duplicates onto every other page at the same fractions, once', () => {
    const initials = field('initials-1', { type: 'initials', page: 2, x: 0.8, y: 0.9, width: 0.1, height: 0.04 });
    const made = onEveryPage([initials], [initials], 3);
    expect(made.map((each) => [each.id, each.page])).toEqual([['initials-2', 1], ['initials-3', 3]]);
    for (const copy of made) expect(copy).toMatchObject({ x: 0.8, y: 0.9, width: 0.1, height: 0.04, type: 'initials' });
    expect(onEveryPage([initials], [initials, ...made], 3)).toEqual([]);
    expect(onEveryPage([{ ...initials, page: 1 }], [], 1)).toEqual([]);
  });
});
