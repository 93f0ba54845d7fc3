import { PdfArray, PdfDict, PdfNumber, PdfRef, type PDF, type PDFPage, type PdfObject } from '@libpdf/core';

/** A page's attributes that its ancestors in the page tree may hold for it (ISO 32000-1 §7.7.3.4). */
const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'] as const;

/** A rectangle in PDF user space: lower-left and upper-right corners. */
interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A page as a viewer shows it: its size after crop and rotation, and the matrix from that space to user space. */
export interface DisplayedPage {
  /** Width and height as displayed, in points. */
  width: number;
  height: number;
  /**
   * `cm` operands mapping displayed coordinates (points, origin at the displayed page's lower-left corner, y up)
   * to the page's user space.
   */
  matrix: [number, number, number, number, number, number];
}

/** A field's rectangle in displayed coordinates (points, origin lower-left, y up). */
export interface DisplayedRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Makes every page safe to draw on and flatten with @libpdf/core 0.4.2: each page gets its own copy of the
 * attributes it inherits (libpdf reads `/Rotate` and `/Resources` from the page only, and drawing on a page without
 * its own `/Resources` hides the inherited fonts), and pages that share one `/Resources` dictionary get their own
 * copies of it and its sub-dictionaries (flattening names each page's widgets `FlatField0…` in it: LibPDF-js/core#79).
 */
export function normalizePages(pdf: PDF): void {
  const resolve = (object: PdfObject | undefined) => (object instanceof PdfRef ? (pdf.getObject(object) ?? undefined) : object);
  const seenResources = new Set<PdfDict>();
  for (const page of pdf.getPages()) {
    for (const key of INHERITED) {
      if (page.dict.has(key)) continue;
      const inherited = inheritedValue(page.dict, key, resolve);
      if (inherited !== undefined) page.dict.set(key, inherited);
    }
    const resources = resolve(page.dict.get('Resources'));
    if (!(resources instanceof PdfDict)) continue;
    if (seenResources.has(resources)) {
      const own = resources.clone();
      for (const [name, value] of resources) {
        const sub = resolve(value);
        if (sub instanceof PdfDict && !(sub.type === 'stream')) own.set(name, sub.clone());
      }
      page.dict.set('Resources', own);
      seenResources.add(own);
    } else {
      seenResources.add(resources);
    }
  }
}

function inheritedValue(dict: PdfDict, key: string, resolve: (object: PdfObject | undefined) => PdfObject | undefined) {
  const seen = new Set<PdfDict>();
  let node = resolve(dict.get('Parent'));
  while (node instanceof PdfDict && !seen.has(node)) {
    seen.add(node);
    const value = node.get(key);
    if (value !== undefined) return value;
    node = resolve(node.get('Parent'));
  }
  return undefined;
}

/**
 * The page as displayed: its crop box (clipped to its media box, both read from the raw arrays, since libpdf's
 * `getCropBox()` reports x2/y2 as width/height: LibPDF-js/core#81) turned by its `/Rotate`.
 * @example displayedPage(page) // { width: 720, height: 540, matrix: [0, 1, -1, 0, 576, 36] } for CropBox [36 36 576 756], /Rotate 90
 */
export function displayedPage(pdf: PDF, page: PDFPage): DisplayedPage {
  const resolve = (object: PdfObject | undefined) => (object instanceof PdfRef ? (pdf.getObject(object) ?? undefined) : object);
  const media = boxOf(resolve(page.dict.get('MediaBox')), resolve) ?? { x0: 0, y0: 0, x1: 612, y1: 792 };
  const crop = intersect(boxOf(resolve(page.dict.get('CropBox')), resolve) ?? media, media);
  const rotate = resolve(page.dict.get('Rotate'));
  const rotation = ((((rotate instanceof PdfNumber ? Math.round(rotate.value / 90) * 90 : 0) % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  const { x0, y0, x1, y1 } = crop;
  const [cropWidth, cropHeight] = [x1 - x0, y1 - y0];
  switch (rotation) {
    case 0:
      return { width: cropWidth, height: cropHeight, matrix: [1, 0, 0, 1, x0, y0] };
    case 90:
      // Turned clockwise: the displayed top-left corner is user space's lower-left, displayed x runs up the page.
      return { width: cropHeight, height: cropWidth, matrix: [0, 1, -1, 0, x1, y0] };
    case 180:
      return { width: cropWidth, height: cropHeight, matrix: [-1, 0, 0, -1, x1, y1] };
    case 270:
      return { width: cropHeight, height: cropWidth, matrix: [0, -1, 1, 0, x0, y1] };
  }
}

/**
 * A field's rectangle, given as fractions of the displayed page from its top-left corner (as Signet stores fields),
 * in displayed points from the lower-left corner.
 * @example fieldRect({ width: 612, height: 792 }, { x: 0.1, y: 0.1, width: 0.5, height: 0.05 }) // { x: 61.2, y: 673.2, width: 306, height: 39.6 }
 */
export function fieldRect(
  page: Pick<DisplayedPage, 'width' | 'height'>,
  field: { x: number; y: number; width: number; height: number },
): DisplayedRect {
  return {
    x: field.x * page.width,
    y: (1 - field.y - field.height) * page.height,
    width: field.width * page.width,
    height: field.height * page.height,
  };
}

function boxOf(object: PdfObject | undefined, resolve: (object: PdfObject | undefined) => PdfObject | undefined): Box | undefined {
  if (!(object instanceof PdfArray) || object.length !== 4) return undefined;
  const values = object.toArray().map((item) => resolve(item));
  if (!values.every((value): value is PdfNumber => value instanceof PdfNumber)) return undefined;
  const [a, b, c, d] = values.map((value) => value.value) as [number, number, number, number];
  return { x0: Math.min(a, c), y0: Math.min(b, d), x1: Math.max(a, c), y1: Math.max(b, d) };
}

function intersect(box: Box, within: Box): Box {
  const clipped = {
    x0: Math.max(box.x0, within.x0),
    y0: Math.max(box.y0, within.y0),
    x1: Math.min(box.x1, within.x1),
    y1: Math.min(box.y1, within.y1),
  };
  // A crop box outside its media box is broken; viewers then show the media box.
  return clipped.x1 > clipped.x0 && clipped.y1 > clipped.y0 ? clipped : within;
}
