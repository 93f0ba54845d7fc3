import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { EmbeddedFont, PDF } from '@libpdf/core';

/**
 * DejaVu Sans: Latin, Greek, Cyrillic, Hebrew and Arabic (and ✓, —, €) in one free font, with the OpenType tables
 * HarfBuzz shapes Arabic with and the Arabic presentation forms the shaped glyphs are written as (text-shaping.ts).
 */
const FONT_DIR = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');

const files = new Map<string, Uint8Array>();

function fontFile(name: string): Uint8Array {
  let bytes = files.get(name);
  if (!bytes) {
    bytes = readFileSync(join(FONT_DIR, name));
    files.set(name, bytes);
  }
  return bytes;
}

/** The fonts a seal draws with, embedded into `pdf` (and subset when it is saved with `subsetFonts`). */
export interface SealFonts {
  regular: EmbeddedFont;
  bold: EmbeddedFont;
}

/**
 * Embeds DejaVu Sans and DejaVu Sans Bold into `pdf`. The files are read once per process.
 * @example const fonts = embedSealFonts(pdf); page.drawText('Αθήνα', { font: fonts.regular })
 */
export function embedSealFonts(pdf: PDF): SealFonts {
  return { regular: pdf.embedFont(fontFile('DejaVuSans.ttf')), bold: pdf.embedFont(fontFile('DejaVuSans-Bold.ttf')) };
}
