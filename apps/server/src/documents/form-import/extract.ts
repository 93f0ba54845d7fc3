import { PDF, PdfArray, PdfDict, PdfRef, type PdfObject } from '@libpdf/core';
import type { FieldDefinition } from '@signet/contract';
import { validationError } from '../../errors.js';
import { displayedPage, normalizePages, type DisplayedPage } from '../../sealing/render/page-geometry.js';
import { checkFormTree } from './form-tree.js';
import { importedField, type ImportedField, type LocateWidget } from './field-mapping.js';
import { widgetBox } from './widget-box.js';

/**
 * The most fields an import gives: the most a document may have (`FieldDefinitionListSchema` in `@signet/contract`,
 * docs/api.md, "Fields"). A form with more is refused rather than cut short (docs/form-fields.md, "Limits").
 */
export const MAX_IMPORTED_FIELDS = 500;

/** What an import gives: the PDF without its form, and the form's fields as Signet's. */
export interface FormImport {
  bytes: Uint8Array;
  fields: FieldDefinition[];
}

/** Annotation flags (ISO 32000-1, table 165): Hidden (bit 2) and NoView (bit 6) widgets are not shown. */
const NOT_SHOWN = (1 << 1) | (1 << 5);

/**
 * Reads a PDF's AcroForm fields as Signet field definitions and writes the PDF without its form: the `/AcroForm`
 * entry and every widget annotation are removed, nothing of them is drawn (docs/form-fields.md). A PDF without a form
 * comes back as it was, with no fields. Runs in a PDF worker (`formImport` task), never on the event loop.
 * @example const { bytes, fields } = await extractFormFields(await readFile('w9.pdf'))
 */
export async function extractFormFields(input: Uint8Array): Promise<FormImport> {
  const pdf = await load(input);
  const catalog = pdf.getCatalog();
  const acroForm = resolve(pdf, catalog.get('AcroForm'));
  if (!(acroForm instanceof PdfDict)) return { bytes: input, fields: [] };
  checkFormTree(pdf, acroForm);

  normalizePages(pdf);
  const pages = pdf.getPages();
  const widgetPages = new Map<PdfObject, number>();
  pages.forEach((page, index) => {
    for (const annot of annotsOf(pdf, page.dict)) widgetPages.set(annot, index);
  });
  const pageIndexByRef = new Map<PdfRef, number>(pages.map((page, index) => [page.ref, index]));
  const displayed = new Map<number, DisplayedPage>();
  const locate: LocateWidget = (widget) => {
    if ((widget.flags & NOT_SHOWN) !== 0) return undefined;
    const fromP = widget.dict.get('P');
    const index = widgetPages.get(widget.ref ?? widget.dict) ?? (fromP instanceof PdfRef ? pageIndexByRef.get(fromP) : undefined);
    if (index === undefined) return undefined;
    let page = displayed.get(index);
    if (!page) displayed.set(index, (page = displayedPage(pdf, pages[index]!)));
    const box = widgetBox(pdf, widget.dict, page);
    return box && { page: index + 1, box };
  };

  const imported = (pdf.getForm()?.getFields() ?? []).flatMap((field) => {
    const definition = importedField(field, locate);
    return definition ? [definition] : [];
  });
  if (imported.length > MAX_IMPORTED_FIELDS) {
    throw validationError('file', `the PDF's form has ${imported.length} fields; a document may have at most ${MAX_IMPORTED_FIELDS}`, 422);
  }

  catalog.delete('AcroForm');
  for (const page of pages) removeWidgets(pdf, page.dict);
  return { bytes: await pdf.save(), fields: withIds(imported) };
}

async function load(bytes: Uint8Array): Promise<PDF> {
  let pdf: PDF;
  try {
    pdf = await PDF.load(bytes);
  } catch {
    throw validationError('file', 'the PDF cannot be parsed (damaged or not a PDF)');
  }
  // The same refusals as an upload's inspection (`inspectPdf`).
  if (pdf.isEncrypted) throw validationError('file', 'the PDF is encrypted or password-protected');
  return pdf;
}

function resolve(pdf: PDF, object: PdfObject | undefined): PdfObject | undefined {
  return object instanceof PdfRef ? (pdf.getObject(object) ?? undefined) : object;
}

/** A page's annotations as they are listed: references, or dictionaries written in place. */
function annotsOf(pdf: PDF, page: PdfDict): PdfObject[] {
  const annots = resolve(pdf, page.get('Annots'));
  return annots instanceof PdfArray ? annots.toArray() : [];
}

/**
 * Gives a page a new `/Annots` without its widgets (an array shared by several pages is left to the others), or
 * none when nothing else was there.
 */
function removeWidgets(pdf: PDF, page: PdfDict): void {
  const annots = annotsOf(pdf, page);
  const kept = annots.filter((annot) => {
    const dict = resolve(pdf, annot);
    return !(dict instanceof PdfDict && dict.getName('Subtype')?.value === 'Widget');
  });
  if (kept.length === annots.length) return;
  if (kept.length === 0) page.delete('Annots');
  else page.set('Annots', new PdfArray(kept));
}

/**
 * Ids from the fields' full names (`applicant.name`), made safe for `FieldIdSchema`: each run of other characters
 * becomes `_`, at most 64 characters, and a name met again gets `-2`, `-3`, … (docs/form-fields.md, "Names").
 */
function withIds(fields: readonly ImportedField[]): FieldDefinition[] {
  const taken = new Set<string>();
  return fields.map(({ name, ...definition }) => {
    const base = name.replace(/[^A-Za-z0-9_.:-]+/g, '_').slice(0, 64) || 'field';
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base.slice(0, 64 - `-${n}`.length)}-${n}`;
    taken.add(id);
    return { id, ...definition };
  });
}
