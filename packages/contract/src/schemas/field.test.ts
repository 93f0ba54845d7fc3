import { describe, expect, it } from 'vitest';
import { fieldDefinitionIssues, hasValue, isIsoDate } from '../field-rules.js';
import { FieldDefinitionSchema, FieldValueSchema, type FieldDefinition } from './field.js';
import { SubmissionPayloadSchema } from './submission.js';

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

  it('refuse unknown members, at the top and nested, naming the object and the member', () => {
    const unknown = (result: { error?: { issues: ReadonlyArray<{ code: string; path: PropertyKey[] }> } }) =>
      result.error?.issues.filter((issue) => issue.code === 'unrecognized_keys').map((issue) => ({ ...issue }));
    const { required: _, ...typo } = base;
    expect(unknown(FieldDefinitionSchema.safeParse({ ...typo, requried: true }))).toMatchObject([{ path: [], keys: ['requried'] }]);
    expect(unknown(FieldDefinitionSchema.safeParse({ ...base, min: 18, validation: {} }))).toMatchObject([{ path: [], keys: ['min'] }]);
    expect(unknown(FieldDefinitionSchema.safeParse({ ...base, validation: { minn: 1 } }))).toMatchObject([{ path: ['validation'], keys: ['minn'] }]);
    expect(unknown(FieldDefinitionSchema.safeParse({ ...base, value: { type: 'text', content: 'a', contnet: 'b' } }))).toMatchObject([
      { path: ['value'], keys: ['contnet'] },
    ]);
    expect(unknown(FieldDefinitionSchema.safeParse({ ...base, type: 'select', options: [{ value: 'a', label: 'A', selected: true }] }))).toMatchObject([
      { path: ['options', 0], keys: ['selected'] },
    ]);
    expect(FieldDefinitionSchema.safeParse({ ...base, validation: { minLength: 1 } }).success).toBe(true);
  });

  it('a submission payload refuses members the contract does not list, at every level', () => {
    const payload = {
      documentId: 'doc_V1StGXR8Z5jdHi6BmyTaQ7fz',
      submittedAt: '2026-11-22T10:00:00.000Z',
      renderContext: { scale: 1, viewportWidth: 800, viewportHeight: 600, devicePixelRatio: 2 },
      pages: [{ pageNumber: 1, width: 612, height: 792, rotation: 0 }],
      fields: [
        {
          id: 'name',
          type: 'text',
          page: 1,
          position: { x: 0.1, y: 0.1, width: 0.3, height: 0.05 },
          value: { type: 'text', content: 'Ada' },
          style: { fontSize: 12, fontFamily: 'Helvetica', textAlign: 'left' },
        },
      ],
      checksum: 'c',
    };
    expect(SubmissionPayloadSchema.safeParse(payload).success).toBe(true);
    const field = payload.fields[0]!;
    for (const [changed, path] of [
      [{ ...payload, extra: 1 }, []],
      [{ ...payload, renderContext: { ...payload.renderContext, zoom: 2 } }, ['renderContext']],
      [{ ...payload, pages: [{ ...payload.pages[0], label: 'i' }] }, ['pages', 0]],
      [{ ...payload, fields: [{ ...field, label: 'Name' }] }, ['fields', 0]],
      [{ ...payload, fields: [{ ...field, position: { ...field.position, z: 0 } }] }, ['fields', 0, 'position']],
      [{ ...payload, fields: [{ ...field, value: { ...field.value, html: '<b>' } }] }, ['fields', 0, 'value']],
      [{ ...payload, fields: [{ ...field, style: { ...field.style, color: 'red' } }] }, ['fields', 0, 'style']],
    ] as const) {
      const issues = SubmissionPayloadSchema.safeParse(changed).error?.issues;
      expect(issues?.map(({ code, path: at }) => ({ code, path: at }))).toEqual([{ code: 'unrecognized_keys', path }]);
    }
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
