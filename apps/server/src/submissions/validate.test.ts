import { Buffer } from 'node:buffer';
import type { FieldDefinition, FieldValue, SubmissionPayload, SubmittedField } from '@signet/contract';
import { describe, expect, it } from 'vitest';
import { IMPLICIT_SIGNER, type DocumentRecord } from '../storage/types.js';
import { dataUrlOf, makePng, pngDataUrl } from '../../test/submissions/test-png.js';
import { checkSubmission } from './validate.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const SIGNATURE_PNG = pngDataUrl(300, 80);

/** A field definition; optional and editable unless `options` say otherwise. */
function define(
  id: string,
  type: FieldDefinition['type'],
  page: number,
  [x, y, width, height]: [number, number, number, number],
  options: Partial<FieldDefinition> = {},
): FieldDefinition {
  return { id, type, page, x, y, width, height, required: false, editable: true, label: id, ...options };
}

const DEFINITIONS: FieldDefinition[] = [
  define('full_name', 'text', 1, [0.1, 0.1, 0.4, 0.05], { required: true, placeholder: 'Your name' }),
  define('signature', 'signature', 2, [0.1, 0.7, 0.3, 0.1], { required: true }),
  define('initials', 'initials', 1, [0.8, 0.9, 0.1, 0.05]),
  define('signed_on', 'date', 2, [0.5, 0.7, 0.2, 0.05]),
  define('agree', 'checkbox', 2, [0.1, 0.85, 0.03, 0.03], { required: true }),
  define('company', 'text', 1, [0.1, 0.2, 0.4, 0.05], {
    required: true,
    editable: false,
    value: { type: 'text', content: 'Acme Ltd' },
  }),
  define('newsletter', 'checkbox', 2, [0.1, 0.9, 0.03, 0.03]),
  define('reference', 'text', 1, [0.6, 0.05, 0.3, 0.04], { editable: false }),
];

const notesDefinition = define('notes', 'text', 1, [0.1, 0.5, 0.8, 0.2]);

function makeDocument(fields: FieldDefinition[] = DEFINITIONS, pageCount = 2): DocumentRecord {
  return {
    id: 'doc_V1StGXR8Z5jdHi6BmyTaQ',
    organizationId: 'org_V1StGXR8Z5jdHi6BmyTaQ',
    filename: 'contract.pdf',
    mimeType: 'application/pdf',
    pageCount,
    fileSize: 12_345,
    sha256: 'a'.repeat(64),
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    version: 1,
    status: 'pending',
    fields,
    signers: [{ ...IMPLICIT_SIGNER }],
    signingOrder: 'parallel',
    implicitSigner: true,
  };
}

const DOCUMENT = makeDocument();

function definition(id: string, fields = DEFINITIONS): FieldDefinition {
  const found = fields.find((field) => field.id === id);
  if (!found) throw new Error(`no definition ${id}`);
  return found;
}

/** A submitted field placed exactly where its definition is. */
function submit(id: string, value: FieldValue, fields = DEFINITIONS): SubmittedField {
  const { type, page, x, y, width, height } = definition(id, fields);
  return { id, type, page, position: { x, y, width, height }, value };
}

function validPayload(): SubmissionPayload {
  return {
    documentId: DOCUMENT.id,
    submittedAt: '2026-11-22T09:59:30.000Z',
    renderContext: { scale: 1.5, viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 2 },
    pages: [
      { pageNumber: 1, width: 612, height: 792, rotation: 0 },
      { pageNumber: 2, width: 612, height: 792, rotation: 0 },
    ],
    fields: [
      submit('full_name', { type: 'text', content: 'Ada Lovelace' }),
      submit('signature', { type: 'signature', imageData: SIGNATURE_PNG }),
      submit('initials', { type: 'initials', imageData: pngDataUrl(60, 40) }),
      submit('signed_on', { type: 'date', content: '2026-11-22' }),
      submit('agree', { type: 'checkbox', checked: true }),
      submit('company', { type: 'text', content: 'Acme Ltd' }),
      submit('newsletter', { type: 'checkbox', checked: false }),
    ],
    checksum: '0'.repeat(64),
  };
}

/** The valid payload with the submitted field `id` changed by `edit`. */
function withField(id: string, edit: (field: SubmittedField) => SubmittedField): SubmissionPayload {
  const payload = validPayload();
  payload.fields = payload.fields.map((field) => (field.id === id ? edit(field) : field));
  return payload;
}

function withValue(id: string, value: FieldValue): SubmissionPayload {
  return withField(id, (field) => ({ ...field, value }));
}

function withoutFields(...ids: string[]): SubmissionPayload {
  const payload = validPayload();
  payload.fields = payload.fields.filter((field) => !ids.includes(field.id));
  return payload;
}

function indexOf(id: string): number {
  return validPayload().fields.findIndex((field) => field.id === id);
}

function check(payload: SubmissionPayload, document = DOCUMENT) {
  return checkSubmission(payload, document, NOW);
}

function issueField(payload: SubmissionPayload, document = DOCUMENT): string | undefined {
  const result = check(payload, document);
  return result && 'issue' in result ? result.issue.field : undefined;
}

describe('checkSubmission', () => {
  it('accepts a complete, faithful submission', () => {
    expect(check(validPayload())).toBeNull();
  });

  it('accepts only the required fields, a non-editable prefill standing in for itself', () => {
    expect(check(withoutFields('initials', 'signed_on', 'company', 'newsletter'))).toBeNull();
  });

  it('does not change the payload', () => {
    const payload = validPayload();
    const copy = structuredClone(payload);
    check(payload);
    expect(payload).toEqual(copy);
  });

  describe('submittedAt', () => {
    const at = (submittedAt: string) => issueField({ ...validPayload(), submittedAt });

    it.each([
      '2026-11-22T10:00:00.000Z',
      '2026-11-22T10:00:00Z',
      '2026-11-22T10:00Z',
      '2026-11-22T11:00:00.000+01:00',
      '2026-11-22T05:30:00.123456-04:30',
      '2024-02-29T23:59:59.999Z',
      '2020-01-01T00:00:00.000Z',
    ])('accepts %s', (submittedAt) => {
      expect(at(submittedAt)).toBeUndefined();
    });

    it.each([
      '',
      'yesterday',
      '2026-11-22',
      '2026-11-22T10:00:00',
      '2026-11-22 10:00:00Z',
      '2026-11-22T10:00:00.000z',
      '2026-11-22T10:00:00+0100',
      '2026-11-22T10:00:00+01',
      '2026-02-30T10:00:00Z',
      '2023-02-29T10:00:00Z',
      '2026-11-22T24:00:00Z',
      '2026-11-22T10:60:00Z',
      '2026-11-22T10:00:60Z',
      '2026-11-22T10:00:00+24:00',
      '2026-11-22T10:00:00.Z',
      ' 2026-11-22T10:00:00Z',
      '1764000000000',
    ])('refuses %j', (submittedAt) => {
      expect(check({ ...validPayload(), submittedAt })).toEqual({
        issue: { field: 'submittedAt', reason: expect.stringMatching(/ISO 8601/) },
      });
    });

    it('allows up to 5 minutes in the future, not a millisecond more', () => {
      expect(at('2026-11-22T10:05:00.000Z')).toBeUndefined();
      expect(at('2026-11-22T11:05:00.000+01:00')).toBeUndefined();
      expect(check({ ...validPayload(), submittedAt: '2026-11-22T10:05:00.001Z' })).toEqual({
        issue: { field: 'submittedAt', reason: 'must not be more than 5 minutes in the future' },
      });
      expect(at('2026-11-22T10:05:00.001+00:00')).toBe('submittedAt');
      expect(at('2026-11-22T06:05:01-04:00')).toBe('submittedAt');
    });

    it('allows any time in the past', () => {
      expect(at('2019-03-04T05:06:07.000Z')).toBeUndefined();
      expect(at('2026-11-22T14:00:00.000+05:00')).toBeUndefined();
    });
  });

  describe('pages', () => {
    it('refuses a page past the end of the document', () => {
      const payload = validPayload();
      payload.pages.push({ pageNumber: 3, width: 612, height: 792, rotation: 0 });
      expect(check(payload)).toEqual({
        issue: { field: 'pages[2].pageNumber', reason: "page 3 is past the document's 2 pages" },
      });
    });

    it('refuses a page listed twice', () => {
      const payload = validPayload();
      payload.pages = [payload.pages[1]!, payload.pages[0]!, payload.pages[1]!];
      expect(check(payload)).toEqual({
        issue: { field: 'pages[2].pageNumber', reason: 'page 2 is listed more than once' },
      });
    });

    it('accepts pages in any order, or some of them', () => {
      const payload = validPayload();
      payload.pages.reverse();
      expect(check(payload)).toBeNull();
      expect(check({ ...payload, pages: [payload.pages[0]!] })).toBeNull();
    });
  });

  describe('field identity and placement', () => {
    it('refuses an unknown field id', () => {
      const payload = validPayload();
      payload.fields.splice(1, 0, { ...payload.fields[0]!, id: 'nickname' });
      expect(check(payload)).toEqual({
        issue: { field: 'fields[1].id', reason: 'no field "nickname" in this document' },
      });
    });

    it('refuses a field submitted twice', () => {
      const payload = validPayload();
      payload.fields.push(payload.fields[0]!);
      expect(check(payload)).toEqual({
        issue: {
          field: `fields[${payload.fields.length - 1}].id`,
          reason: 'field "full_name" is submitted more than once',
        },
      });
    });

    it('refuses a type other than the definition’s', () => {
      const payload = withField('full_name', (field) => ({
        ...field,
        type: 'date',
        value: { type: 'date', content: '2026-11-22' },
      }));
      expect(issueField(payload)).toBe('fields[0].type');
    });

    it('refuses a value of another type than the field', () => {
      const payload = withField('full_name', (field) => ({ ...field, value: { type: 'date', content: '2026-11-22' } }));
      expect(check(payload)).toEqual({
        issue: { field: 'fields[0].value.type', reason: 'a text field cannot hold a date value' },
      });
    });

    it('refuses another page than the definition’s', () => {
      expect(issueField(withField('signature', (field) => ({ ...field, page: 1 })))).toBe('fields[1].page');
    });

    it.each(['x', 'y', 'width', 'height'] as const)('allows %s within 0.001 of the definition, not beyond', (key) => {
      const shift = (delta: number) =>
        issueField(
          withField('signature', (field) => ({
            ...field,
            position: { ...field.position, [key]: field.position[key] + delta },
          })),
        );
      expect(shift(0.0009)).toBeUndefined();
      expect(shift(-0.0009)).toBeUndefined();
      expect(shift(0.001)).toBeUndefined();
      expect(shift(0.002)).toBe(`fields[1].position.${key}`);
      expect(shift(-0.002)).toBe(`fields[1].position.${key}`);
      expect(shift(Number.NaN)).toBe(`fields[1].position.${key}`);
    });

    it('says where the field should be', () => {
      const payload = withField('full_name', (field) => ({ ...field, position: { ...field.position, y: 0.5 } }));
      expect(check(payload)).toEqual({
        issue: { field: 'fields[0].position.y', reason: 'must be 0.1 (within 0.001), as defined' },
      });
    });
  });

  describe('non-editable fields', () => {
    const company = indexOf('company');

    it('accepts the prefilled value unchanged', () => {
      expect(check(withValue('company', { type: 'text', content: 'Acme Ltd' }))).toBeNull();
    });

    it('refuses any other value', () => {
      expect(check(withValue('company', { type: 'text', content: 'Acme Ltd.' }))).toEqual({
        issue: {
          field: `fields[${company}].value`,
          reason: 'field "company" is not editable; its value must be the prefilled one',
        },
      });
      expect(issueField(withValue('company', { type: 'text', content: '' }))).toBe(`fields[${company}].value`);
      const extra = { type: 'text', content: 'Acme Ltd', note: 1 } as FieldValue;
      expect(issueField(withValue('company', extra))).toBe(`fields[${company}].value`);
    });

    it('refuses any value for a non-editable field without a prefill', () => {
      const payload = validPayload();
      payload.fields.push(submit('reference', { type: 'text', content: '' }));
      expect(issueField(payload)).toBe(`fields[${payload.fields.length - 1}].value`);
    });

    it('counts a required non-editable field without a prefill as missing', () => {
      const fields = DEFINITIONS.map((field) => (field.id === 'company' ? { ...field, value: undefined } : field));
      expect(check(withoutFields('company'), makeDocument(fields))).toEqual({ missingFields: ['company'] });
    });

    it('counts an omitted required editable field as missing even with a prefill', () => {
      const fields = DEFINITIONS.map((field) =>
        field.id === 'full_name' ? { ...field, value: { type: 'text' as const, content: 'Ada' } } : field,
      );
      expect(check(withoutFields('full_name'), makeDocument(fields))).toEqual({ missingFields: ['full_name'] });
      expect(check(validPayload(), makeDocument(fields))).toBeNull();
    });
  });

  describe('text', () => {
    it('accepts 10,000 characters and refuses 10,001', () => {
      expect(check(withValue('full_name', { type: 'text', content: 'a'.repeat(10_000) }))).toBeNull();
      expect(check(withValue('full_name', { type: 'text', content: 'a'.repeat(10_001) }))).toEqual({
        issue: { field: 'fields[0].value.content', reason: 'must be at most 10000 characters' },
      });
    });

    it('counts characters, not UTF-16 units', () => {
      expect(check(withValue('full_name', { type: 'text', content: '✍️'.repeat(5_000) }))).toBeNull();
      expect(check(withValue('full_name', { type: 'text', content: '😀'.repeat(10_000) }))).toBeNull();
      const tooLong = withValue('full_name', { type: 'text', content: '😀'.repeat(10_001) });
      expect(issueField(tooLong)).toBe('fields[0].value.content');
    });

    it('counts empty and whitespace-only text as missing', () => {
      expect(check(withValue('full_name', { type: 'text', content: '' }))).toEqual({ missingFields: ['full_name'] });
      const blank = withValue('full_name', { type: 'text', content: ' \t\n\u00a0' });
      expect(check(blank)).toEqual({ missingFields: ['full_name'] });
    });

    it('accepts empty text in an optional field', () => {
      const payload = validPayload();
      payload.fields.push(submit('notes', { type: 'text', content: '   ' }, [...DEFINITIONS, notesDefinition]));
      expect(check(payload, makeDocument([...DEFINITIONS, notesDefinition]))).toBeNull();
    });
  });

  describe('date', () => {
    const at = `fields[${indexOf('signed_on')}].value.content`;
    const date = (content: string) => check(withValue('signed_on', { type: 'date', content }));

    it.each(['2026-11-22', '2024-02-29', '1999-12-31'])('accepts %s', (content) => {
      expect(date(content)).toBeNull();
    });

    it.each([
      '2023-02-29',
      '2026-13-01',
      '2026-04-31',
      '2026-1-5',
      '22/11/2026',
      '2026-11-22T00:00:00Z',
      ' 2026-11-22',
      'soon',
    ])('refuses %j', (content) => {
      expect(date(content)).toEqual({ issue: { field: at, reason: 'must be a real date written YYYY-MM-DD' } });
    });

    it('refuses content over 10,000 characters', () => {
      expect(date('2'.repeat(10_001))).toEqual({ issue: { field: at, reason: 'must be at most 10000 characters' } });
    });

    it('accepts an empty date in an optional field as no value', () => {
      expect(date('')).toBeNull();
      expect(date('   ')).toBeNull();
    });

    it('counts an empty date in a required field as missing', () => {
      const fields = DEFINITIONS.map((field) => (field.id === 'signed_on' ? { ...field, required: true } : field));
      const document = makeDocument(fields);
      const blank = withValue('signed_on', { type: 'date', content: ' ' });
      expect(check(blank, document)).toEqual({ missingFields: ['signed_on'] });
      expect(check(withoutFields('signed_on'), document)).toEqual({ missingFields: ['signed_on'] });
      expect(check(validPayload(), document)).toBeNull();
    });
  });

  describe('signature and initials images', () => {
    const signature = (imageData: string) => check(withValue('signature', { type: 'signature', imageData }));
    const at = 'fields[1].value.imageData';

    it('accepts real PNGs up to 4096 px a side and 1 MiB', () => {
      expect(signature(pngDataUrl(4096, 1))).toBeNull();
      expect(signature(pngDataUrl(4, 4, { size: 1024 * 1024 }))).toBeNull();
    });

    it('refuses a JPEG under a PNG data URL', () => {
      const jfif = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00];
      const jpeg = Buffer.from([...jfif, ...new Array(60).fill(0), 0xff, 0xd9]);
      expect(signature(dataUrlOf(jpeg))).toEqual({
        issue: { field: at, reason: 'image is not a PNG (its signature is wrong)' },
      });
    });

    it('refuses a truncated PNG', () => {
      const png = makePng(30, 30);
      expect(signature(dataUrlOf(png.subarray(0, png.length - 20)))).toEqual({
        issue: { field: at, reason: 'PNG is truncated' },
      });
    });

    it('refuses a PNG 4097 px wide', () => {
      expect(signature(pngDataUrl(4097, 2))).toEqual({
        issue: { field: at, reason: 'image is 4097×2 px; each side must be 1 to 4096 px' },
      });
    });

    it('refuses a PNG over 1 MiB', () => {
      expect(signature(pngDataUrl(4, 4, { size: 1024 * 1024 + 1 }))).toEqual({
        issue: { field: at, reason: 'image is larger than 1 MiB once decoded' },
      });
    });

    it('refuses invalid base64', () => {
      const imageData = `${SIGNATURE_PNG.slice(0, -4)}!AAA`;
      expect(check(withValue('signature', { type: 'signature', imageData }))).toEqual({
        issue: { field: at, reason: 'image data is not valid base64' },
      });
    });

    it('checks initials the same way', () => {
      const payload = withValue('initials', { type: 'initials', imageData: pngDataUrl(1, 5000) });
      expect(issueField(payload)).toBe(`fields[${indexOf('initials')}].value.imageData`);
    });
  });

  describe('checkboxes', () => {
    it('refuses a required checkbox submitted unchecked', () => {
      expect(check(withValue('agree', { type: 'checkbox', checked: false }))).toEqual({
        issue: { field: `fields[${indexOf('agree')}].value.checked`, reason: 'a required checkbox must be checked' },
      });
    });

    it('accepts an optional checkbox unchecked or checked', () => {
      expect(check(withValue('newsletter', { type: 'checkbox', checked: false }))).toBeNull();
      expect(check(withValue('newsletter', { type: 'checkbox', checked: true }))).toBeNull();
    });

    it('counts an omitted required checkbox as missing', () => {
      expect(check(withoutFields('agree'))).toEqual({ missingFields: ['agree'] });
    });
  });

  describe('missing required values', () => {
    it('lists every missing field in the document’s order', () => {
      const payload = withoutFields('agree', 'signature');
      payload.fields = payload.fields.map((field) =>
        field.id === 'full_name' ? { ...field, value: { type: 'text', content: ' ' } } : field,
      );
      payload.fields.reverse();
      expect(check(payload)).toEqual({ missingFields: ['full_name', 'signature', 'agree'] });
    });

    it('lists every required field of an empty submission, except a non-editable prefilled one', () => {
      expect(check({ ...validPayload(), fields: [] })).toEqual({ missingFields: ['full_name', 'signature', 'agree'] });
    });

    it('accepts a document without required fields and an empty submission', () => {
      const fields = DEFINITIONS.map((field) => ({ ...field, required: false }));
      expect(check({ ...validPayload(), fields: [] }, makeDocument(fields))).toBeNull();
    });
  });

  describe('order', () => {
    it('reports a rule issue rather than missing values', () => {
      const payload = withoutFields('signature');
      payload.fields[0]!.value = { type: 'text', content: 'a'.repeat(10_001) };
      expect(issueField(payload)).toBe('fields[0].value.content');
    });

    it('reports submittedAt first, then pages, then fields in order', () => {
      const payload = withValue('full_name', { type: 'text', content: 'a'.repeat(10_001) });
      payload.fields[indexOf('agree')]!.value = { type: 'checkbox', checked: false };
      payload.pages.push({ pageNumber: 9, width: 612, height: 792, rotation: 0 });
      payload.submittedAt = 'not a time';
      expect(issueField(payload)).toBe('submittedAt');
      payload.submittedAt = NOW.toISOString();
      expect(issueField(payload)).toBe('pages[2].pageNumber');
      payload.pages.pop();
      expect(issueField(payload)).toBe('fields[0].value.content');
      payload.fields[0]!.value = { type: 'text', content: 'Ada' };
      expect(issueField(payload)).toBe(`fields[${indexOf('agree')}].value.checked`);
    });

    it('reports the first broken rule of a field', () => {
      const payload = withField('signature', (field) => ({
        ...field,
        page: 1,
        position: { ...field.position, x: 0.9 },
        value: { type: 'signature', imageData: dataUrlOf(Buffer.from('nope')) },
      }));
      expect(issueField(payload)).toBe('fields[1].page');
    });
  });
});

