/**
 * The entry of the script-tag build (`embed.js`): React, the viewer and pdf.js in one ES module that defines
 * `<signet-signing-viewer>`. pdf.js's worker and the handwriting font load from the folder the script was loaded
 * from, unless the page sets `window.SignetEmbedConfig = { workerSrc, fontBase }` before the script runs (or an
 * element has `worker-src` / `font-base`).
 * @example <script type="module" src="https://sign.example.com/embed/0.1.0/embed.js" integrity="sha384-…" crossorigin="anonymous"></script>
 */
import { configureHandwritingFont, configurePdfWorker } from '@signet/viewer';
import { defineSigningViewerElement } from './element.js';
import { mount } from './mount.js';

/** Where the script-tag build loads its assets from; `window.SignetEmbedConfig`. */
export interface SignetEmbedConfig {
  /** pdf.js's worker script (default: `pdf.worker.min.mjs` beside `embed.js`). */
  workerSrc?: string;
  /** The folder of Caveat's `caveat-*-400-normal.woff2` files (default: the folder of `embed.js`). */
  fontBase?: string;
}

declare global {
  interface Window {
    SignetEmbedConfig?: SignetEmbedConfig;
  }
}

// A variable, not a literal in `new URL(…, import.meta.url)`: the bundler must leave this URL to the browser.
const here = import.meta.url;
const config = globalThis.window?.SignetEmbedConfig ?? {};
// A module worker cannot be started from another origin; pdf.js wraps a cross-origin `workerSrc` in a blob: module
// that imports it, which `worker-src blob:` allows.
configurePdfWorker(new URL(config.workerSrc ?? 'pdf.worker.min.mjs', config.workerSrc ? document.baseURI : here).href);
configureHandwritingFont(config.fontBase ? new URL(config.fontBase, document.baseURI) : new URL('./', here));
defineSigningViewerElement();

export { defineSigningViewerElement, mount };
export type { SignetEventMap } from './events.js';
export type { SigningViewerElement } from './element.js';
