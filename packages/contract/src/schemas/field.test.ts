import { describe, expect, it } from 'vitest';
import { fieldDefinitionIssues, hasValue, isIsoDate } from '../field-rules.js';
import { FieldDefinitionSchema, FieldValueSchema, type FieldDefinition } from './field.js';

const base: FieldDefinition = { id: 'name', type: 'text', page: 1, x: 0.1, y: 0.1, width: 0.3, height: 0.05, required: true, editable: true, label: 'Name' };

describe('field definitions', () => {
  it('parse the five types with prefills of their own type', () => {
    for (const value of [
      { type: 'text', content: 'a' },
      { type: 'signature', imageData: 'data:image/png;base64,iVBORw0KGgo=' },
      { type: 'initials', imageData: 'data:image/png;base64,iVBORw0KGgo=' },
      { type: 'date', content: '2026-11-22' },
      { type: 'checkbox', checked: true },
    ] as const) {
      expect(FieldDefinitionSchema.safeParse({ ...base, type: value.type, value }).success).toBe(true);
    }
  });

  it('refuse unknown types, coordinates outside [0, 1] and images that are not PNG data URLs', () => {
    expect(FieldDefinitionSchema.safeParse({ ...base, type: 'slider' }).success).toBe(false);
    expect(FieldValueSchema.safeParse({ type: 'image', imageData: 'data:image/gif;base64,AAAA' }).success).toBe(false);
    expect(FieldValueSchema.safeParse({ type: 'image', imageData: 'data:image/jpeg;base64,AAAA' }).success).toBe(true);
    expect(FieldDefinitionSchema.safeParse({ ...base, validation: { step: 0 } }).success).toBe(false);
    expect(FieldDefinitionSchema.safeParse({ ...base, options: [] }).success).toBe(false);
    expect(FieldDefinitionSchema.safeParse({ ...base, x: 1.2 }).success).toBe(false);
    expect(FieldValueSchema.safeParse({ type: 'signature', imageData: 'data:image/jpeg;base64,AAAA' }).success).toBe(false);
  });

  it('report geometry, page, duplicate and prefill-type issues with their paths', () => {
    const issues = fieldDefinitionIssues(
      [
        base,
        { ...base, id: 'name', x: 0.8, width: 0.3 },
        { ...base, id: 'p', page: 3 },
        { ...base, id: 'h', y: 0.99, height: 0.02 },
        { ...base, id: 'w', width: 0 },
        { ...base, id: 'v', value: { type: 'checkbox', checked: true } },
      ],
      2,
    );
    expect(issues.map((i) => i.field)).toEqual([
      'fields[1].id',
      'fields[1].width',
      'fields[2].page',
      'fields[3].height',
      'fields[4].width',
      'fields[5].value.type',
    ]);
    expect(fieldDefinitionIssues([base], 1)).toEqual([]);
  });
});

describe('values', () => {
  it('isIsoDate accepts real dates only', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('26-01-01')).toBe(false);
  });

  it('hasValue: blank text and unticked boxes count as empty', () => {
    expect(hasValue({ type: 'text', content: ' \n ' })).toBe(false);
    expect(hasValue({ type: 'text', content: 'x' })).toBe(true);
    expect(hasValue({ type: 'checkbox', checked: false })).toBe(false);
    expect(hasValue(undefined)).toBe(false);
  });
});
