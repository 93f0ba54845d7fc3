import { describe, expect, it } from 'vitest';
import type { FieldDefinition, FieldValue, TextStyle } from './schemas/field.js';
import type { PageInfo, SubmittedField } from './schemas/submission.js';
import { submissionIssues, submittedFields, type SubmissionRulesPayload } from './submission-rules.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const STYLE: TextStyle = { fontSize: 12, fontFamily: 'Helvetica', textAlign: 'left' };
/** A 1×1 PNG: the rules' default image check reads only the decoded size. */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function define(id: string, type: FieldDefinition['type'], page: number, options: Partial<FieldDefinition> = {}): FieldDefinition {
  return { id, type, page, x: 0.1, y: 0.1 * page, width: 0.3, height: 0.05, required: false, editable: true, label: id, ...options };
}

const FIELDS: FieldDefinition[] = [
  define('name', 'text', 1, { required: true }),
  define('signature', 'signature', 2, { required: true }),
  define('signed_on', 'date', 2),
  define('agree', 'checkbox', 2, { required: true }),
  define('company', 'text', 1, { required: true, editable: false, value: { type: 'text', content: 'Acme Ltd' } }),
];
const DOCUMENT = { pageCount: 2, fields: FIELDS };

const COMPLETE: Record<string, FieldValue> = {
  name: { type: 'text', content: 'Ada Lovelace' },
  signature: { type: 'signature', imageData: PNG },
  signed_on: { type: 'date', content: '2026-11-22' },
  agree: { type: 'checkbox', checked: true },
};

function payload(values: Record<string, FieldValue | undefined> = COMPLETE): { submittedAt: string; pages: PageInfo[]; fields: SubmittedField[] } {
  return {
    submittedAt: '2026-11-22T09:59:30.000Z',
    pages: [
      { pageNumber: 1, width: 612, height: 792, rotation: 0 },
      { pageNumber: 2, width: 612, height: 792, rotation: 0 },
    ],
    fields: submittedFields(FIELDS, values, () => STYLE),
  };
}

const issuesOf = (submission: SubmissionRulesPayload, document = DOCUMENT) => submissionIssues(document, submission, { now: NOW });
const withText = (content: string) => issuesOf(payload({ ...COMPLETE, name: { type: 'text', content } }));

describe('submittedFields', () => {
  it('places every field with a value as defined, in the document’s order, with a style on text only', () => {
    const fields = submittedFields(FIELDS, { agree: COMPLETE.agree, name: COMPLETE.name }, () => STYLE);
    expect(fields).toEqual([
      { id: 'name', type: 'text', page: 1, position: { x: 0.1, y: 0.1, width: 0.3, height: 0.05 }, value: COMPLETE.name, style: STYLE },
      { id: 'agree', type: 'checkbox', page: 2, position: { x: 0.1, y: 0.2, width: 0.3, height: 0.05 }, value: COMPLETE.agree },
      {
        id: 'company',
        type: 'text',
        page: 1,
        position: { x: 0.1, y: 0.1, width: 0.3, height: 0.05 },
        value: { type: 'text', content: 'Acme Ltd' },
        style: STYLE,
      },
    ]);
  });
});

describe('submissionIssues', () => {
  it('finds nothing in a complete, faithful submission', () => {
    expect(issuesOf(payload())).toEqual([]);
  });

  describe('missing required values', () => {
    it('lists each required field without a value, in the document’s order, by id', () => {
      const issues = issuesOf(payload({ signed_on: COMPLETE.signed_on }));
      expect(issues).toEqual([
        { field: 'fields', reason: 'required field "name" has no value', fieldId: 'name', missing: true },
        { field: 'fields', reason: 'required field "signature" has no value', fieldId: 'signature', missing: true },
        { field: 'fields', reason: 'required field "agree" has no value', fieldId: 'agree', missing: true },
      ]);
    });

    it('counts empty and whitespace-only text as missing', () => {
      expect(withText('')).toEqual([expect.objectContaining({ fieldId: 'name', missing: true })]);
      expect(withText(' \t\n\u00a0')).toEqual([expect.objectContaining({ fieldId: 'name', missing: true })]);
    });

    it('lets the prefill of a field the signer cannot edit stand in for it, not that of an editable one', () => {
      const fields = FIELDS.map((field) => (field.id === 'name' ? { ...field, value: COMPLETE.name } : field));
      const submission = payload();
      submission.fields = submission.fields.filter((field) => field.id !== 'name' && field.id !== 'company');
      expect(submissionIssues({ pageCount: 2, fields }, submission, { now: NOW })).toEqual([
        expect.objectContaining({ fieldId: 'name', missing: true }),
      ]);
    });

    it('reports a required checkbox sent unchecked as a rule and as a missing value', () => {
      const issues = issuesOf(payload({ ...COMPLETE, agree: { type: 'checkbox', checked: false } }));
      expect(issues).toEqual([
        { field: 'fields[3].value.checked', reason: 'a required checkbox must be checked', fieldId: 'agree' },
        expect.objectContaining({ fieldId: 'agree', missing: true }),
      ]);
    });
  });

  describe('text limits, in code points', () => {
    const limit = 10_000;

    it('takes 10,000 characters and refuses 10,001', () => {
      expect(withText('a'.repeat(limit))).toEqual([]);
      expect(withText('a'.repeat(limit + 1))).toEqual([
        { field: 'fields[0].value.content', reason: 'must be at most 10000 characters', fieldId: 'name' },
      ]);
    });

    it('counts an emoji (a surrogate pair, two UTF-16 units) as one character', () => {
      expect('😀'.repeat(limit).length).toBe(2 * limit);
      expect(withText('😀'.repeat(limit))).toEqual([]);
      expect(withText(`${'a'.repeat(limit - 1)}😀`)).toEqual([]);
      expect(withText(`${'😀'.repeat(limit)}a`)).toEqual([expect.objectContaining({ field: 'fields[0].value.content' })]);
    });

    it('counts a lone surrogate as one character, as the string iterator does', () => {
      expect(withText('\ud83d'.repeat(limit))).toEqual([]);
      expect(withText(`${'\ude00'.repeat(limit)}\ud83d`)).toEqual([expect.objectContaining({ field: 'fields[0].value.content' })]);
    });

    it('counts code points, not graphemes: a flag is two, a family emoji five', () => {
      expect(withText('🇪🇺'.repeat(limit / 2))).toEqual([]);
      expect(withText(`${'🇪🇺'.repeat(limit / 2)}x`)).toHaveLength(1);
      expect(withText('👨‍👩‍👧'.repeat(limit / 5))).toEqual([]);
      expect(withText(`${'👨‍👩‍👧'.repeat(limit / 5)}x`)).toHaveLength(1);
    });

    it('holds dates to the same limit and to real dates', () => {
      const date = (content: string) => issuesOf(payload({ ...COMPLETE, signed_on: { type: 'date', content } }));
      expect(date('2026-02-30')).toEqual([
        { field: 'fields[2].value.content', reason: 'must be a real date written YYYY-MM-DD', fieldId: 'signed_on' },
      ]);
      expect(date('2'.repeat(limit + 1))).toEqual([expect.objectContaining({ reason: 'must be at most 10000 characters' })]);
    });
  });

  describe('field identity, type and placement', () => {
    const edited = (index: number, edit: (field: SubmittedField) => SubmittedField) => {
      const submission = payload();
      submission.fields = submission.fields.map((field, at) => (at === index ? edit(field) : field));
      return issuesOf(submission);
    };

    it('refuses an unknown field id, and a field sent twice', () => {
      const submission = payload();
      submission.fields.push({ ...submission.fields[0]!, id: 'nickname' }, submission.fields[0]!);
      expect(issuesOf(submission)).toEqual([
        { field: 'fields[5].id', reason: 'no field "nickname" in this document', fieldId: 'nickname' },
        { field: 'fields[6].id', reason: 'field "name" is submitted more than once', fieldId: 'name' },
      ]);
    });

    it('refuses a type other than the definition’s, and a value of another type than the field', () => {
      expect(edited(0, (field) => ({ ...field, type: 'date', value: { type: 'date', content: '2026-11-22' } }))).toEqual([
        { field: 'fields[0].type', reason: 'field "name" is a text field, not date', fieldId: 'name' },
      ]);
      expect(edited(0, (field) => ({ ...field, value: { type: 'checkbox', checked: true } }))).toEqual([
        { field: 'fields[0].value.type', reason: 'a text field cannot hold a checkbox value', fieldId: 'name' },
      ]);
    });

    it('refuses another page, and a position off by more than 0.001 (or not a number)', () => {
      expect(edited(1, (field) => ({ ...field, page: 1 }))).toEqual([
        { field: 'fields[1].page', reason: 'field "signature" is on page 2', fieldId: 'signature' },
      ]);
      const moved = (dx: number) => edited(1, (field) => ({ ...field, position: { ...field.position, x: field.position.x + dx } }));
      expect(moved(0.001)).toEqual([]);
      expect(moved(-0.0011)).toEqual([
        { field: 'fields[1].position.x', reason: 'must be 0.1 (within 0.001), as defined', fieldId: 'signature' },
      ]);
      expect(moved(Number.NaN)).toHaveLength(1);
    });

    it('refuses a changed read-only prefill, and accepts it unchanged', () => {
      expect(edited(4, (field) => ({ ...field, value: { type: 'text', content: 'Acme Ltd.' } }))).toEqual([
        { field: 'fields[4].value', reason: 'field "company" is not editable; its value must be the prefilled one', fieldId: 'company' },
      ]);
      expect(edited(4, (field) => ({ ...field, value: { content: 'Acme Ltd', type: 'text' } as FieldValue }))).toEqual([]);
    });
  });

  describe('images', () => {
    const big = `data:image/png;base64,${'A'.repeat(Math.ceil((1024 * 1024 + 1) / 3) * 4)}`;
    const withSignature = (imageData: string, imageIssue?: (imageData: string) => string | null) =>
      submissionIssues(DOCUMENT, payload({ ...COMPLETE, signature: { type: 'signature', imageData } }), { now: NOW, imageIssue });

    it('checks the decoded size by default', () => {
      expect(withSignature(big)).toEqual([
        { field: 'fields[1].value.imageData', reason: 'image is larger than 1 MiB once decoded', fieldId: 'signature' },
      ]);
    });

    it('asks the given image check instead', () => {
      const seen: string[] = [];
      const issues = withSignature(PNG, (imageData) => (seen.push(imageData), 'not a PNG'));
      expect(seen).toEqual([PNG]);
      expect(issues).toEqual([{ field: 'fields[1].value.imageData', reason: 'not a PNG', fieldId: 'signature' }]);
    });
  });

  describe('submittedAt, validated by TimestampSchema', () => {
    const at = (submittedAt: string) => issuesOf({ ...payload(), submittedAt });
    const malformed = { field: 'submittedAt', reason: 'must be an ISO 8601 timestamp with a time zone, such as 2026-11-22T10:00:00.000Z' };

    it.each(['2026-11-22T10:00:00.000Z', '2026-11-22T10:00Z', '2026-11-22T11:00:00+01:00', '2026-11-22T05:30:00.123456-04:30'])(
      'accepts %s',
      (submittedAt) => expect(at(submittedAt)).toEqual([]),
    );

    it.each(['', '2026-11-22', '2026-11-22T10:00:00', '2026-02-30T10:00:00Z', '2026-11-22T10:00:00+0100', '2026-11-22t10:00:00z'])(
      'refuses %j',
      (submittedAt) => expect(at(submittedAt)).toEqual([malformed]),
    );

    it('allows 5 minutes ahead of the clock, not a millisecond more', () => {
      expect(at('2026-11-22T10:05:00.000Z')).toEqual([]);
      expect(at('2026-11-22T11:05:00.001+01:00')).toEqual([
        { field: 'submittedAt', reason: 'must not be more than 5 minutes in the future' },
      ]);
    });
  });

  it('reports pages past the document or listed twice', () => {
    const submission = payload();
    submission.pages.push({ pageNumber: 3, width: 612, height: 792, rotation: 0 }, { ...submission.pages[0]! });
    expect(issuesOf(submission)).toEqual([
      { field: 'pages[2].pageNumber', reason: "page 3 is past the document's 2 pages" },
      { field: 'pages[3].pageNumber', reason: 'page 1 is listed more than once' },
    ]);
  });

  it('lists submittedAt, then pages, then fields in payload order, then missing values', () => {
    const submission = payload({ ...COMPLETE, name: { type: 'text', content: 'x'.repeat(10_001) }, signature: undefined });
    submission.submittedAt = 'soon';
    submission.pages.push({ pageNumber: 9, width: 612, height: 792, rotation: 0 });
    expect(issuesOf(submission).map((issue) => issue.field)).toEqual([
      'submittedAt',
      'pages[2].pageNumber',
      'fields[0].value.content',
      'fields',
    ]);
  });

  it('checks only the fields when the payload has neither submittedAt nor pages', () => {
    expect(submissionIssues(DOCUMENT, { fields: payload().fields })).toEqual([]);
  });
});
