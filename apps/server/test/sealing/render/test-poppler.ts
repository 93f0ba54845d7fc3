/**
 * Poppler's command-line tools (Debian's poppler-utils) as the sealing tests' independent judge of a PDF: where its
 * pages are and how they turn (`pdfinfo -box`), where each word landed (`pdftotext -bbox`), what a page looks like
 * (`pdftoppm`).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A rectangle in a page's displayed coordinates: points from its top-left corner, as pdftotext reports words. */
export interface TopLeftRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface PageBox {
  /** `[x0 y0 x1 y1]` as pdfinfo prints it. */
  cropBox: [number, number, number, number];
  rotation: number;
  /** The crop box's size once turned. */
  width: number;
  height: number;
}

export interface Word extends TopLeftRect {
  text: string;
}

/** A page rendered as 8-bit RGB. */
export interface Raster {
  width: number;
  height: number;
  rgb: Uint8Array;
}

/** Runs `fn` with `pdf` written to a temporary file. */
export async function withPdfFile<T>(pdf: Uint8Array, fn: (path: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-poppler-'));
  try {
    const path = join(dir, 'file.pdf');
    await writeFile(path, pdf);
    return await fn(path, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function pageBoxes(pdf: Uint8Array, pages: number): Promise<PageBox[]> {
  const { stdout } = await withPdfFile(pdf, (path) => run('pdfinfo', ['-box', '-f', '1', '-l', String(pages), path]));
  return Array.from({ length: pages }, (_, index) => {
    const at = (pattern: string) => new RegExp(`^Page\\s+${index + 1} ${pattern}`, 'm').exec(stdout);
    const cropBox = at('CropBox:\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)')!.slice(1, 5).map(Number) as PageBox['cropBox'];
    const rotation = Number(at('rot:\\s+(\\d+)')![1]);
    const [w, h] = [cropBox[2] - cropBox[0], cropBox[3] - cropBox[1]];
    return { cropBox, rotation, ...(rotation % 180 === 90 ? { width: h, height: w } : { width: w, height: h }) };
  });
}

/** `pdftotext -cropbox -bbox`: each page's words with their boxes, in displayed coordinates. */
export async function pageWords(pdf: Uint8Array): Promise<Word[][]> {
  const { stdout } = await withPdfFile(pdf, (path) => run('pdftotext', ['-q', '-cropbox', '-bbox', path, '-'], { maxBuffer: 64 << 20 }));
  return stdout.split('<page ').slice(1).map((page) =>
    Array.from(page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g), (match) => ({
      left: Number(match[1]),
      top: Number(match[2]),
      right: Number(match[3]),
      bottom: Number(match[4]),
      text: unescapeXml(match[5]!),
    })),
  );
}

/** `pdftotext` of pages `first` to `last` (all when unset), as plain text. */
export async function pdfText(pdf: Uint8Array, first?: number, last?: number): Promise<string> {
  const range = [...(first ? ['-f', String(first)] : []), ...(last ? ['-l', String(last)] : [])];
  const { stdout } = await withPdfFile(pdf, (path) => run('pdftotext', ['-q', ...range, path, '-']));
  return stdout;
}

/** `pdftoppm -cropbox` of pages 1 to `pages` at `dpi`. */
export async function renderPages(pdf: Uint8Array, pages: number, dpi: number): Promise<Raster[]> {
  return withPdfFile(pdf, async (path, dir) => {
    await run('pdftoppm', ['-q', '-cropbox', '-r', String(dpi), '-f', '1', '-l', String(pages), path, join(dir, 'page')]);
    const files = (await readdir(dir)).filter((name) => name.endsWith('.ppm')).sort();
    return Promise.all(files.map(async (name) => parsePpm(await readFile(join(dir, name)))));
  });
}

/** Text of a `pdffonts` listing. */
export async function pdfFonts(pdf: Uint8Array): Promise<string> {
  return (await withPdfFile(pdf, (path) => run('pdffonts', [path]))).stdout;
}

function parsePpm(bytes: Buffer): Raster {
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 64).toString('latin1'))!;
  return { width: Number(header[1]), height: Number(header[2]), rgb: new Uint8Array(bytes.subarray(header[0].length)) };
}

function unescapeXml(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}
