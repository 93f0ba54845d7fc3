import type { FieldDefinition } from '@signet/contract';
import { validationError } from '../errors.js';
import type { PdfPool } from '../pdf/pool/index.js';
import { importFormFields } from './form-import/index.js';
import { applyTextTags } from './text-tags/index.js';

/**
 * What an upload asks to be found in the PDF itself: its text tags (`tags`, docs/text-tags.md) and its form fields
 * (`formFields`, docs/form-fields.md). Multipart parts arrive as text; a caller in code may pass booleans.
 */
export interface UploadImports {
  tags?: unknown;
  formFields?: unknown;
}

/** The PDF to store and the fields found in it (none when nothing was asked). */
export interface PreparedUpload {
  bytes: Uint8Array;
  found: FieldDefinition[];
}

/** Whether the upload asks for anything to be found in the PDF (then `fields` may be left out). */
export function importsAsked(imports: UploadImports): boolean {
  return readTags(imports.tags) || readFormFields(imports.formFields) === 'import';
}

/**
 * Finds the fields an upload asks for, in the PDF pool: its form fields first (the form is then removed from the
 * PDF), then its text tags (their text is then removed), each on the PDF the step before left. A malformed tag or a
 * PDF over the pool's limits is a 422 naming it; a bad part is a 400.
 * @example const { bytes, found } = await prepareUpload(pool, upload, { tags: 'true' })
 */
export async function prepareUpload(pdfPool: PdfPool, bytes: Uint8Array, imports: UploadImports): Promise<PreparedUpload> {
  const tags = readTags(imports.tags);
  const formFields = readFormFields(imports.formFields);
  let pdf = bytes;
  const found: FieldDefinition[] = [];
  if (formFields === 'import') {
    const form = await importFormFields(pdfPool, pdf);
    pdf = form.bytes;
    found.push(...form.fields);
  }
  if (tags) {
    const tagged = await applyTextTags(pdfPool, pdf);
    pdf = tagged.bytes;
    found.push(...tagged.fields);
  }
  return { bytes: pdf, found };
}

/**
 * The fields given with the upload followed by those found in it; a found field whose id a given one has already is
 * a 400 naming it (the `fields` part's entry wins nothing: the author renames one of them).
 */
export function mergeFoundFields(given: unknown, found: readonly FieldDefinition[]): unknown {
  if (found.length === 0) return given;
  const list = given === undefined ? [] : given;
  if (!Array.isArray(list)) return list; // the schema names what is wrong with it
  const ids = new Set(list.map((field: unknown) => (field !== null && typeof field === 'object' ? (field as { id?: unknown }).id : undefined)));
  const clash = found.find((field) => ids.has(field.id));
  if (clash) throw validationError('fields', `field id "${clash.id}" is given in "fields" and found in the PDF too`);
  return [...list, ...found];
}

function readTags(value: unknown): boolean {
  if (value === undefined || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  throw validationError('tags', 'must be "true" or "false"');
}

function readFormFields(value: unknown): 'import' | 'keep' {
  if (value === undefined || value === 'keep') return 'keep';
  if (value === 'import') return 'import';
  throw validationError('formFields', 'must be "import" or "keep"');
}
