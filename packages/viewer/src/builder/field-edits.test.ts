import { describe, expect, it } from 'vitest';
import { FIELD_TYPES as CONTRACT_TYPES, type FieldDefinition } from '@signet/contract';
import { clampRect, dragHandle, FIELD_TYPES, moveBy, newField, nextFieldId, paletteTypes, resizeBy } from './field-edits.js';

const LETTER = { width: 612, height: 792 };
const field: FieldDefinition = { id: 'a', type: 'text', page: 1, x: 0.1, y: 0.2, width: 0.3, height: 0.05, required: false, editable: true, label: 'A' };

describe('field edits in page fractions', () => {
  it('centres a new field on the point, at its type’s size in points, numbered after its type', () => {
    const signature = newField({ type: 'signature', page: 2, centre: { x: 0.5, y: 0.5 }, size: LETTER, fields: [], label: 'Signature' });
    expect(signature).toMatchObject({ id: 'signature-1', page: 2, label: 'Signature', required: true, editable: true });
    expect(signature.width).toBeCloseTo(180 / 612, 6);
    expect(signature.x + signature.width / 2).toBeCloseTo(0.5, 6);
    const second = newField({ type: 'signature', page: 1, centre: { x: 0.5, y: 0.5 }, size: LETTER, fields: [signature], label: 'Signature' });
    expect(second).toMatchObject({ id: 'signature-2', label: 'Signature 2' });
  });

  it('keeps a field dropped at a corner on the page, and gives a choice field two options and the chosen signer', () => {
    const radio = newField({ type: 'radio', page: 1, centre: { x: 1, y: 0 }, size: LETTER, fields: [], label: 'Choice', optionLabel: 'Option', signerId: 'tenant' });
    expect(radio.x + radio.width).toBeCloseTo(1, 6);
    expect(radio.y).toBe(0);
    expect(radio.options).toEqual([{ value: 'Option 1', label: 'Option 1' }, { value: 'Option 2', label: 'Option 2' }]);
    expect(radio.signerId).toBe('tenant');
  });

  it('moves by points and resizes by points, never off the page nor below the minimum size', () => {
    expect(moveBy(field, 1, 0, LETTER).x).toBeCloseTo(0.1 + 1 / 612, 6);
    expect(moveBy(field, 0, -10, LETTER).y).toBeCloseTo(0.2 - 10 / 792, 6);
    expect(moveBy(field, 10_000, 10_000, LETTER)).toMatchObject({ x: 0.7, y: 0.95 });
    expect(resizeBy(field, 10, 1, LETTER).width).toBeCloseTo(0.3 + 10 / 612, 6);
    expect(resizeBy(field, -10_000, 0, LETTER).width).toBeCloseTo(8 / 612, 6);
    expect(resizeBy(field, 10_000, 0, LETTER).width).toBeCloseTo(0.9, 6);
  });

  it('drags a handle’s edges only, the opposite edges staying where they were', () => {
    const west = dragHandle(field, 'w', 0.05, 0.3, LETTER);
    expect(west).toEqual({ x: 0.15, y: 0.2, width: 0.25, height: 0.05 });
    const corner = dragHandle(field, 'se', 0.1, 0.1, LETTER);
    expect(corner.width).toBeCloseTo(0.4, 6);
    expect(corner.height).toBeCloseTo(0.15, 6);
    expect(dragHandle(field, 'n', 0, 1, LETTER).height).toBeCloseTo(8 / 792, 6);
  });

  it('clamps and rounds a rectangle, chooses unused ids and restricts the palette', () => {
    expect(clampRect({ x: -0.1, y: 0.99, width: 0.2, height: 0.1234567891 })).toEqual({ x: 0, y: 0.876543, width: 0.2, height: 0.123457 });
    expect(nextFieldId('text', [{ ...field, id: 'text-1' }, { ...field, id: 'text-3' }])).toBe('text-2');
    expect(FIELD_TYPES).toEqual(CONTRACT_TYPES);
    expect(paletteTypes()).toEqual([...CONTRACT_TYPES]);
    expect(paletteTypes(['date', 'signature'])).toEqual(['signature', 'date']);
  });
});
