/** The family name under which Caveat (the typed signature's handwriting font) is registered. */
export const HANDWRITING_FONT_FAMILY = 'Signet Caveat';

/**
 * The CSS `font-family` of typed signatures. Caveat writes Latin and Cyrillic by hand. Arabic and Japanese, which it
 * lacks, get a readable face of the platform's: a Naskh for Arabic (Noto Naskh Arabic on Android and Linux, Geeza
 * Pro on Apple's systems, Traditional Arabic or Segoe UI on Windows) and a Mincho for Japanese (Hiragino, Yu, Noto
 * Serif CJK), whose brush-drawn strokes read as a signature. The browser picks a face per character, so a name
 * that mixes scripts uses each. `cursive` last: any other script, and Latin until Caveat has loaded.
 */
export const HANDWRITING_FONT_STACK =
  `"${HANDWRITING_FONT_FAMILY}", "Noto Naskh Arabic", "Geeza Pro", "Traditional Arabic", "Segoe UI", ` +
  '"Hiragino Mincho ProN", "Yu Mincho", "Noto Serif CJK JP", "Noto Serif JP", cursive';

// Caveat's subsets with the unicode ranges @fontsource declares for them, so that a browser downloads only the
// subsets a name needs. Each URL is a literal for bundlers to find and copy the file.
const SUBSETS = [
  {
    file: 'caveat-latin-400-normal.woff2',
    url: new URL('@fontsource/caveat/files/caveat-latin-400-normal.woff2', import.meta.url),
    unicodeRange:
      'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,' +
      'U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
  },
  {
    file: 'caveat-latin-ext-400-normal.woff2',
    url: new URL('@fontsource/caveat/files/caveat-latin-ext-400-normal.woff2', import.meta.url),
    unicodeRange:
      'U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,' +
      'U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF',
  },
  {
    file: 'caveat-cyrillic-400-normal.woff2',
    url: new URL('@fontsource/caveat/files/caveat-cyrillic-400-normal.woff2', import.meta.url),
    unicodeRange: 'U+0301,U+0400-045F,U+0490-0491,U+04B0-04B1,U+2116',
  },
  {
    file: 'caveat-cyrillic-ext-400-normal.woff2',
    url: new URL('@fontsource/caveat/files/caveat-cyrillic-ext-400-normal.woff2', import.meta.url),
    unicodeRange: 'U+0460-052F,U+1C80-1C8A,U+20B4,U+2DE0-2DFF,U+A640-A69F,U+FE2E-FE2F',
  },
];

/** The documents whose fonts have Caveat, each with what its faces from another origin still wait for. */
const installed = new WeakMap<FontFaceSet, Promise<void>>();
let fontBase: URL | undefined;

/**
 * Makes the typed signature load Caveat's files from `baseUrl` (a folder holding `@fontsource/caveat/files`'
 * `caveat-*-400-normal.woff2`) instead of the copies Signet's bundler emits. For hosts whose bundler does not copy
 * `new URL(…, import.meta.url)` assets, and for the script-tag build. Call it before the first signature dialog opens.
 * @example configureHandwritingFont('https://cdn.example.com/signet/fonts/')
 */
export function configureHandwritingFont(baseUrl: string | URL): void {
  fontBase = new URL(baseUrl, globalThis.location?.href);
}

/**
 * Registers Caveat with a document's fonts (once per document), so that CSS using {@link HANDWRITING_FONT_STACK}
 * shows it as soon as it has downloaded. The faces stay registered: they are shared by every dialog of the page.
 * @example
 * useEffect(() => installHandwritingFont(), []);
 */
export function installHandwritingFont(fonts: FontFaceSet = document.fonts): void {
  if (installed.has(fonts)) return;
  const fetched: Promise<void>[] = [];
  for (const subset of SUBSETS) {
    const url = fontBase ? new URL(subset.file, fontBase) : subset.url;
    const descriptors: FontFaceDescriptors = { unicodeRange: subset.unicodeRange, display: 'swap' };
    if (sameOrigin(url)) {
      fonts.add(new FontFace(HANDWRITING_FONT_FAMILY, `url(${JSON.stringify(url.href)}) format("woff2")`, descriptors));
    } else {
      // Files on another origin (the script tag's, beside embed.js on the Signet server) are fetched and given to
      // FontFace as bytes: a page's `connect-src` already admits that origin, where a URL would need `font-src`.
      fetched.push(fetchFace(url, descriptors).then((face) => void fonts.add(face), () => undefined));
    }
  }
  installed.set(fonts, Promise.all(fetched).then(() => undefined));
}

function sameOrigin(url: URL): boolean {
  return url.protocol === 'data:' || url.origin === globalThis.location?.origin;
}

async function fetchFace(url: URL, descriptors: FontFaceDescriptors): Promise<FontFace> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url.href}`);
  return new FontFace(HANDWRITING_FONT_FAMILY, await response.arrayBuffer(), descriptors);
}

/**
 * The CSS `font` shorthand for `text` in Caveat at `sizePx`, once the subsets that `text` needs have loaded, so
 * that drawing it on a canvas really uses Caveat (a canvas does not wait for fonts, nor redraw when they arrive).
 * Rejects when a subset cannot be downloaded.
 * @example
 * context.font = await loadHandwritingFont('Ada Lovelace', 96);
 * context.fillText('Ada Lovelace', 0, 96);
 */
export async function loadHandwritingFont(text: string, sizePx: number, fonts: FontFaceSet = document.fonts): Promise<string> {
  installHandwritingFont(fonts);
  await installed.get(fonts);
  const font = `${sizePx}px ${HANDWRITING_FONT_STACK}`;
  const faces = await fonts.load(font, text);
  const failed = faces.find((face) => face.status === 'error');
  if (failed) throw new Error(`The handwriting font could not be loaded (${failed.family})`);
  return font;
}
