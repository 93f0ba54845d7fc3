import { FieldDefinitionListSchema, type FieldDefinition } from '@signet/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.js';
import { createPdfPool } from '../../pdf-worker/index.js';
import { embeddedFontPdf, helveticaWidth, line, taggedPdf, wordByWord } from '../../../test/pdf/tagged-pdfs.js';
import { pageWords, pdfText, type Word } from '../../../test/sealing/render/test-poppler.js';
import { MAX_TAGS, applyTextTags } from './index.js';

const pool = createPdfPool({ workers: 1 });
afterAll(() => pool.close());

/** Each word but the tags, with its box, as pdftotext reads them, top to bottom and left to right. */
function wordsOf(pages: Word[][]): Word[][] {
  return inOrder(pages.map((words) => words.filter((word) => !word.text.includes('{{') && !word.text.includes('}}'))));
}

/** pdftotext orders words by the columns it sees, which a removed tag changes: the words by place instead. */
function inOrder(pages: Word[][]): Word[][] {
  return pages.map((words) => [...words].sort((a, b) => a.top - b.top || a.left - b.left));
}

/** Words of the tagless PDF, in the order of `wordsOf`. */
async function wordsAfter(pdf: Uint8Array): Promise<Word[][]> {
  return inOrder(await pageWords(pdf));
}

async function refusal(pdf: Uint8Array): Promise<ApiError> {
  const error = await applyTextTags(pool, pdf).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('applyTextTags', () => {
  it('turns a tag sharing a line with other words into a field, and removes only the tag', async () => {
    const pdf = await taggedPdf([{ content: line(72, 700, 'Tenant: {{signature;signer=tenant;required}} Date: {{date;signer=tenant}}') }]);
    const { bytes, fields } = await applyTextTags(pool, pdf);

    const before = await pageWords(pdf);
    const after = await wordsAfter(bytes);
    expect(after).toEqual(wordsOf(before));
    expect(after[0]!.map((word) => word.text)).toEqual(['Tenant:', 'Date:']);
    expect(await pdfText(bytes)).not.toContain('{{');

    const tagWord = before[0]!.find((word) => word.text.startsWith('{{signature'))!;
    expect(fields).toEqual([
      expect.objectContaining({ id: 'signature_1', type: 'signature', page: 1, signerId: 'tenant', required: true, editable: true, label: 'Signature' }),
      expect.objectContaining({ id: 'date_1', type: 'date', page: 1, signerId: 'tenant', required: false, label: 'Date' }),
    ]);
    // The field is on the tag's box: pdftotext's word box, whose height is the font's and ours 1 em.
    const [signature] = fields;
    expect(signature!.x * 612).toBeCloseTo(tagWord.left, 1);
    expect((signature!.x + signature!.width) * 612).toBeCloseTo(tagWord.right, 1);
    expect(signature!.y * 792).toBeCloseTo(792 - 700 - 0.8 * 12, 3);
    expect(signature!.height * 792).toBeCloseTo(12, 3);
  });

  it('reads a tag drawn word by word, each word its own Tj, and keeps every other word in place', async () => {
    const pdf = await taggedPdf([
      { content: wordByWord(72, 650, 'Rent: {{text;id=rent;label=Monthly rent;required}} per month, due on {{date;label=Due date}} each month') },
    ]);
    const { bytes, fields } = await applyTextTags(pool, pdf);
    expect(await wordsAfter(bytes)).toEqual(wordsOf(await pageWords(pdf)));
    expect(fields.map(({ id, label }) => ({ id, label }))).toEqual([
      { id: 'rent', label: 'Monthly rent' },
      { id: 'date_1', label: 'Due date' },
    ]);
  });

  it('reads tags cut across TJ strings with kerning, hex strings and the quote operators', async () => {
    const content = [
      'BT /F1 12 Tf 14 TL 72 700 Td',
      '[(Name: {{te) -20 (xt;la) 35 <62656c3d46756c6c206e616d657d7d> ( and more)] TJ',
      '(Sign: {{initials}} here) \'',
      '2 0.5 (Check {{checkbox;id=agree}} this) "',
      'ET',
    ].join('\n');
    const pdf = await taggedPdf([{ content }]);
    const { bytes, fields } = await applyTextTags(pool, pdf);
    expect(await wordsAfter(bytes)).toEqual(wordsOf(await pageWords(pdf)));
    expect(fields.map(({ id, type, label }) => ({ id, type, label }))).toEqual([
      { id: 'text_1', type: 'text', label: 'Full name' },
      { id: 'initials_1', type: 'initials', label: 'Initials' },
      { id: 'agree', type: 'checkbox', label: 'Checkbox' },
    ]);
  });

  it('makes a field of every type, with its options, and numbers the ids of each type', async () => {
    const tags = [
      '{{text}}',
      '{{signature;signer=buyer}}',
      '{{initials;signer=buyer}}',
      '{{date;readonly}}',
      '{{checkbox;required}}',
      '{{number;placeholder=0.00;fontSize=9}}',
      '{{email;label=E-mail}}',
      '{{phone}}',
      '{{textarea;height=60;width=300}}',
      '{{select;options=m:Monthly|y:Yearly}}',
      '{{radio;options=yes|no}}',
      '{{image}}',
      '{{text;id=text_1x}}',
      '{{text}}',
    ];
    const pdf = await taggedPdf([{ content: tags.map((tag, i) => line(72, 740 - i * 20, `${i + 1}. ${tag} after`, 10)).join('') }]);
    const { bytes, fields } = await applyTextTags(pool, pdf);
    expect(FieldDefinitionListSchema.safeParse(fields).success).toBe(true);
    expect(fields.map((field) => field.id)).toEqual([
      'text_1', 'signature_1', 'initials_1', 'date_1', 'checkbox_1', 'number_1', 'email_1', 'phone_1', 'textarea_1', 'select_1', 'radio_1', 'image_1', 'text_1x', 'text_2',
    ]);
    const byId = new Map(fields.map((field) => [field.id, field]));
    expect(byId.get('date_1')).toMatchObject({ editable: false });
    expect(byId.get('checkbox_1')).toMatchObject({ required: true });
    expect(byId.get('number_1')).toMatchObject({ placeholder: '0.00', fontSize: 9 });
    expect(byId.get('email_1')).toMatchObject({ label: 'E-mail' });
    expect(byId.get('select_1')).toMatchObject({ options: [{ value: 'm', label: 'Monthly' }, { value: 'y', label: 'Yearly' }] });
    expect(byId.get('radio_1')).toMatchObject({ options: [{ value: 'yes', label: 'yes' }, { value: 'no', label: 'no' }] });
    // width and height in points replace the tag's size; its bottom-left corner stays on the line.
    const textarea = byId.get('textarea_1')!;
    expect(textarea.width * 612).toBeCloseTo(300, 3);
    expect(textarea.height * 792).toBeCloseTo(60, 3);
    expect((textarea.y + textarea.height) * 792).toBeCloseTo(792 - (740 - 8 * 20) + 0.2 * 10, 3);
    expect(textarea.x * 612).toBeCloseTo(72 + helveticaWidth('9. ') * 10, 3);
    const words = (await pageWords(bytes))[0]!.map((word) => word.text);
    expect(words.filter((word) => word === 'after')).toHaveLength(tags.length);
    expect(words.join(' ')).not.toMatch(/[{}]/);
  });

  it('places fields on the page as displayed: rotated, and cropped', async () => {
    const pdf = await taggedPdf([
      { content: line(72, 700, 'Rotated: {{initials}} here'), rotate: 90 },
      { content: line(172, 600, 'Cropped: {{signature}} here'), cropBox: [100, 50, 500, 700] },
    ]);
    const { bytes, fields } = await applyTextTags(pool, pdf);
    const before = await pageWords(pdf);
    expect(await wordsAfter(bytes)).toEqual(wordsOf(before));
    // pdftotext reports words on the displayed page, from its top-left corner, as fields are.
    const expectations: [FieldDefinition, Word, number, number][] = [
      [fields[0]!, before[0]!.find((word) => word.text === '{{initials}}')!, 792, 612],
      [fields[1]!, before[1]!.find((word) => word.text === '{{signature}}')!, 400, 650],
    ];
    // Within 1.5 points: pdftotext's box is as high as the font's glyphs, ours is 1 em (docs/text-tags.md).
    for (const [field, word, width, height] of expectations) {
      expect(Math.abs(field.x * width - word.left)).toBeLessThan(1.5);
      expect(Math.abs((field.x + field.width) * width - word.right)).toBeLessThan(1.5);
      expect(Math.abs(field.y * height - word.top)).toBeLessThan(1.5);
      expect(Math.abs((field.y + field.height) * height - word.bottom)).toBeLessThan(1.5);
    }
    expect(fields[0]).toMatchObject({ page: 1, type: 'initials' });
    expect(fields[0]!.height).toBeGreaterThan(fields[0]!.width); // the line runs down the displayed page
    expect(fields[1]).toMatchObject({ page: 2, type: 'signature' });
  });

  it('reads a font embedded as Type0, Identity-H with a ToUnicode CMap', async () => {
    const pdf = await embeddedFontPdf('Name: {{text;label=Name}} end');
    const { bytes, fields } = await applyTextTags(pool, pdf);
    expect(await wordsAfter(bytes)).toEqual(wordsOf(await pageWords(pdf)));
    expect(fields).toEqual([expect.objectContaining({ id: 'text_1', label: 'Name' })]);
  });

  it('gives back a PDF without tags as it was', async () => {
    const pdf = await taggedPdf([{ content: line(72, 700, 'No tags here, only {braces} and }} closers') }]);
    const result = await applyTextTags(pool, pdf);
    expect(result.fields).toEqual([]);
    expect(Buffer.from(result.bytes).equals(Buffer.from(pdf))).toBe(true);
  });

  it('refuses a malformed tag with a 422 naming its page and its text', async () => {
    const pdf = await taggedPdf([{ content: line(72, 700, 'Fine {{text}}') }, { content: line(72, 700, 'Sign: {{sigature;signer=tenant}}') }]);
    const error = await refusal(pdf);
    expect(error.status).toBe(422);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual({ field: 'file', reason: 'page 2: {{sigature;signer=tenant}} is not a tag: unknown type "sigature" (one of text, signature, initials, date, checkbox, number, email, phone, textarea, select, radio, image)' });
  });

  it('refuses a tag that is never closed, and two tags with one id', async () => {
    expect((await refusal(await taggedPdf([{ content: line(72, 700, 'Open {{signature;signer=a and nothing more') }]))).details).toMatchObject({
      reason: expect.stringMatching(/^page 1: \{\{signature;signer=a and nothing more is not a tag: it has no closing \}\}$/),
    });
    const twice = await taggedPdf([{ content: line(72, 700, '{{text;id=x}}') }, { content: line(72, 700, '{{date;id=x}}') }]);
    expect((await refusal(twice)).details).toMatchObject({ reason: 'page 2: {{date;id=x}} is not a tag: id "x" is already the id of {{text;id=x}} on page 1' });
  });

  it('refuses 100,000 tags with a 422 naming the most fields a document may have', async () => {
    const row = '{{text}}'.repeat(100);
    const pages = Array.from({ length: 10 }, () => ({ content: Array.from({ length: 100 }, (_, i) => line(10, 780 - i * 7, row, 2)).join('') }));
    const error = await refusal(await taggedPdf(pages));
    expect(error.status).toBe(422);
    expect(error.details).toEqual({ field: 'file', reason: `page 1: the document has more than ${MAX_TAGS} tags, the most fields a document may have` });
  });

  it('takes as many tags as a document may have fields, the contract\'s limit', async () => {
    const field = { id: 'a', type: 'text', page: 1, x: 0, y: 0, width: 0.1, height: 0.1, required: false, editable: true, label: 'A' };
    expect(FieldDefinitionListSchema.safeParse(Array.from({ length: MAX_TAGS }, (_, i) => ({ ...field, id: `f${i}` }))).success).toBe(true);
    expect(FieldDefinitionListSchema.safeParse(Array.from({ length: MAX_TAGS + 1 }, (_, i) => ({ ...field, id: `f${i}` }))).success).toBe(false);
    const pages = Array.from({ length: 5 }, () => ({ content: Array.from({ length: 10 }, (_, i) => line(10, 780 - i * 20, '{{text}} '.repeat(10), 6)).join('') }));
    const { fields } = await applyTextTags(pool, await taggedPdf(pages));
    expect(fields).toHaveLength(MAX_TAGS);
    expect(new Set(fields.map((f) => f.id)).size).toBe(MAX_TAGS);
  });
});
