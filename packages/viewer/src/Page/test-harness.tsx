import { createSigningClient } from '@signet/api';
import type { SdkDocument } from '@signet/contract';
import { useEffect, useRef, type ReactNode, type Ref } from 'react';
import { usePdfDocument, type PdfDocumentState } from '../pdf/usePdfDocument.js';
import type { PageGeometry } from '../pdf/page-geometry.js';
import type { CreatedDocument } from '../test-support/commands.js';
import { PdfPages, type PdfPagesHandle } from './PdfPages.js';
import { pageCss } from './styles.js';

/** A document on the real server as the viewer gets it, through the API client: its `documentUrl` and metadata. */
export function sdkDocumentOf(doc: CreatedDocument): Promise<SdkDocument> {
  return createSigningClient({ baseUrl: doc.baseUrl, apiKey: doc.apiKey }).getDocument(doc.documentId);
}

/** The `documentUrl` of a document on the real server, as the viewer would get it. */
export async function documentUrlOf(doc: CreatedDocument): Promise<string> {
  return (await sdkDocumentOf(doc)).documentUrl;
}

export interface HarnessProps {
  url: string;
  zoom?: number;
  height?: number;
  width?: number;
  pagesRef?: Ref<PdfPagesHandle>;
  renderOverlay?: (page: PageGeometry, cssScale: number) => ReactNode;
  pinnedPages?: ReadonlySet<number>;
  onPagePainted?: (pageNumber: number) => void;
  onScaleChange?: (scale: number) => void;
  onState?: (state: PdfDocumentState) => void;
}

/** `usePdfDocument` + `PdfPages` in a `.signet-viewer` box of a fixed size, with the page CSS: what a host does. */
export function Harness({ url, zoom = 1, height = 600, width = 800, pagesRef, onState, ...pageProps }: HarnessProps) {
  const state = usePdfDocument(url);
  const report = useRef(onState);
  report.current = onState;
  useEffect(() => {
    report.current?.(state);
  }, [state]);
  return (
    <div className="signet-viewer" style={{ height, width }}>
      <style>{pageCss}</style>
      {state.pdf ? <PdfPages ref={pagesRef} pdf={state.pdf} pages={state.pages} zoom={zoom} {...pageProps} /> : null}
    </div>
  );
}

/** Share of pixels in the canvas that are clearly not white (the drawn text and lines). */
export function inkRatio(canvas: HTMLCanvasElement, region?: { x: number; y: number; width: number; height: number }): number {
  const { x = 0, y = 0, width = canvas.width, height = canvas.height } = region ?? {};
  const data = canvas.getContext('2d')!.getImageData(x, y, width, height).data;
  let ink = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200) ink++;
  return ink / (width * height);
}

/** The rendered canvas of a page, if it has one. */
export function renderedCanvas(pageNumber: number): HTMLCanvasElement | null {
  return document.querySelector<HTMLCanvasElement>(`[data-page-number="${pageNumber}"] canvas[data-rendered="true"]`);
}

export function pageBox(pageNumber: number): HTMLElement {
  const box = document.querySelector<HTMLElement>(`[data-page-number="${pageNumber}"]`);
  if (!box) throw new Error(`no box for page ${pageNumber}`);
  return box;
}

export const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/**
 * A tiny hand-written PDF (one `width` × `height` pt page with /Rotate `rotate`) whose content is a black band over
 * the left quarter of the unrotated page: where the band lands shows how the rotation was applied.
 */
export function bandPdf(width: number, height: number, rotate: number): Uint8Array {
  const content = `0 0 0 rg 0 0 ${width / 4} ${height} re f`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Rotate ${rotate} /Contents 4 0 R >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let text = '%PDF-1.7\n';
  const offsets = objects.map((body, index) => {
    const offset = text.length;
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(text);
}
