import { describe, expect, it } from 'vitest';
import { PDF } from '@libpdf/core';
import { fieldDefinitionIssues } from '@signet/contract';
import { generateSamplePdf, sampleFields } from './sample.js';
import { inspectPdf } from './inspect.js';

describe('the sample agreement', () => {
  it.each([1, 3, 300])('has %i pages that parse back, US Letter', async (pages) => {
    const bytes = await generateSamplePdf({ pages });
    expect((await inspectPdf(bytes)).pageCount).toBe(pages);
    const page = (await PDF.load(bytes)).getPage(0)!;
    expect({ width: page.width, height: page.height }).toEqual({ width: 612, height: 792 });
  });

  it.each([1, 3, 300])('has valid fields of all five types for %i pages, some on the last page', (pages) => {
    const fields = sampleFields(pages);
    expect(fieldDefinitionIssues(fields, pages)).toEqual([]);
    expect(new Set(fields.map((f) => f.type))).toEqual(new Set(['text', 'signature', 'initials', 'date', 'checkbox']));
    expect(fields.some((f) => f.page === pages && f.required)).toBe(true);
    expect(fields.some((f) => !f.editable && f.value)).toBe(true);
  });

  it('is deterministic', async () => {
    expect(Buffer.compare(await generateSamplePdf({ pages: 2 }), await generateSamplePdf({ pages: 2 }))).toBe(0);
  });
});
