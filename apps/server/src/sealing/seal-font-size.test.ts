/**
 * A field's `fontSize` in the sealed PDF, judged by poppler: a word's box from `pdftotext -bbox` is as tall as the
 * size it was set in, so words of one field set at twice the size of another's are twice as tall.
 */
import type { FieldDefinition } from '@signet/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { formPdf, sealInput } from '../../test/sealing/render/test-pdfs.js';
import { pageWords, type Word } from '../../test/sealing/render/test-poppler.js';
import { renderSeal } from './seal-pdf.js';

type TestField = Parameters<typeof sealInput>[0][number];

const STYLE = { fontSize: 12, fontFamily: 'Helvetica', textAlign: 'left' } as const;

/** Each field on its own line of page 1, 60 pt tall, so that no size is clipped. */
const line = (id: string, row: number, value: TestField['value'], style?: typeof STYLE): TestField => ({
  id,
  type: value.type,
  page: 1,
  box: { x: 0.1, y: 0.1 + row * 0.09, width: 0.8, height: 0.075 },
  value,
  ...(style ? { style } : {}),
});

const FIELDS: TestField[] = [
  // The viewer's style says 12 pt; the definitions below say otherwise, and the definitions win.
  line('small', 0, { type: 'text', content: 'Smallprint' }, STYLE),
  line('large', 1, { type: 'text', content: 'Headline' }, STYLE),
  // No style submitted (an API client): the definition's size, not one derived from the height.
  line('unstyled', 2, { type: 'email', content: 'ada@example.com' }),
  line('choice', 3, { type: 'select', value: 'gold' }, STYLE),
  line('default', 4, { type: 'text', content: 'Derived' }, STYLE),
];
const SIZES: Record<string, number | undefined> = { small: 8, large: 16, unstyled: 8, choice: 16, default: undefined };

let words: Word[];

beforeAll(async () => {
  const input = sealInput(FIELDS, 3);
  input.fields = input.fields.map((definition): FieldDefinition => {
    const sized = SIZES[definition.id] === undefined ? definition : { ...definition, fontSize: SIZES[definition.id] };
    return definition.id === 'choice' ? { ...sized, options: [{ value: 'gold', label: 'Gold plan' }] } : sized;
  });
  words = (await pageWords(await renderSeal(await formPdf(), input)))[0]!;
});

/** What field `id` shows first: its text's first word, or its option's label's. */
const FIRST_WORDS: Record<string, string> = { small: 'Smallprint', large: 'Headline', unstyled: 'ada@example.com', choice: 'Gold', default: 'Derived' };

/** The height of the first word drawn in field `id`. */
function heightIn(id: string): number {
  const word = words.find((candidate) => candidate.text === FIRST_WORDS[id]);
  expect(word, `the word of ${id}`).toBeDefined();
  return word!.bottom - word!.top;
}

describe('a field’s font size in the sealed PDF', () => {
  it('sets each value in its definition’s font size, over the submitted style and without one', () => {
    const unit = heightIn('small');
    expect(heightIn('large') / unit).toBeCloseTo(2, 1);
    expect(heightIn('unstyled') / unit).toBeCloseTo(1, 1);
    expect(heightIn('choice') / unit).toBeCloseTo(2, 1);
    // Without a fontSize the submitted style's 12 pt, as before.
    expect(heightIn('default') / unit).toBeCloseTo(1.5, 1);
  });
});
