import { PdfArray, PdfDict, PdfRef, type PDF, type PdfObject } from '@libpdf/core';
import { validationError } from '../../errors.js';

/**
 * The most fields and widgets a form's tree may hold to be imported: twenty times the fields a document may have
 * (`MAX_IMPORTED_FIELDS`), room for radio groups and copies of a field on several pages. Past it the upload is
 * refused before @libpdf/core builds a field object for each (docs/form-fields.md, "Limits").
 */
export const MAX_FORM_NODES = 10_000;
/** The deepest field hierarchy imported (`a.b.c` is three levels); forms made by people use a handful. */
export const MAX_FORM_DEPTH = 32;

/**
 * Checks a form's field tree (`/Fields` and every `/Kids` below it) before it is read: at most `MAX_FORM_NODES`
 * fields and widgets, at most `MAX_FORM_DEPTH` levels, each object counted once, so a cycle ends the walk rather than
 * looping. Iterative: a hostile depth cannot exhaust the stack. Past a limit: 422 naming it.
 * @example checkFormTree(pdf, acroFormDict)
 */
export function checkFormTree(pdf: PDF, acroForm: PdfDict): void {
  const resolve = (object: PdfObject | undefined) => (object instanceof PdfRef ? (pdf.getObject(object) ?? undefined) : object);
  const seen = new Set<PdfObject>();
  const stack: Array<{ node: PdfObject | undefined; depth: number }> = [];
  const pushKids = (kids: PdfObject | undefined, depth: number) => {
    const array = resolve(kids);
    if (!(array instanceof PdfArray)) return;
    for (const kid of array.toArray()) stack.push({ node: kid, depth });
  };
  pushKids(acroForm.get('Fields'), 1);
  let nodes = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    // PdfRefs are interned by @libpdf/core: one object, one key, however many times it is referred to.
    if (node === undefined || seen.has(node)) continue;
    seen.add(node);
    const dict = resolve(node);
    if (!(dict instanceof PdfDict)) continue;
    if (++nodes > MAX_FORM_NODES) {
      throw validationError('file', `the PDF's form has more than ${MAX_FORM_NODES} fields and widgets, more than can be imported`, 422);
    }
    if (depth > MAX_FORM_DEPTH) {
      throw validationError('file', `the PDF's form nests fields more than ${MAX_FORM_DEPTH} levels deep, more than can be imported`, 422);
    }
    pushKids(dict.get('Kids'), depth + 1);
  }
}
