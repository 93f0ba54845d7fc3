/**
 * The entry of the builder's script-tag build (`builder.js`): React (Preact's compatibility layer), the builder and
 * pdf.js in one ES module that defines `<signet-builder>`; a script of its own, so a signing page's `embed.js` does
 * not carry the builder. pdf.js's worker loads from the folder the script was loaded from, unless the page sets
 * `window.SignetEmbedConfig = { workerSrc }` before the script runs (or an element has `worker-src`).
 * @example <script type="module" src="https://sign.example.com/embed/0.1.0/builder.js" integrity="sha384-…" crossorigin="anonymous"></script>
 */
import { configurePdfWorker } from '@signet/viewer';
import { defineBuilderElement } from './builder-element.js';
import { mountBuilder } from './builder-mount.js';
import type {} from './script.js';

// A variable, not a literal in `new URL(…, import.meta.url)`: the bundler must leave this URL to the browser.
const here = import.meta.url;
const config = globalThis.window?.SignetEmbedConfig ?? {};
configurePdfWorker(new URL(config.workerSrc ?? 'pdf.worker.min.mjs', config.workerSrc ? document.baseURI : here).href);
defineBuilderElement();

export { defineBuilderElement, mountBuilder };
export type { SignetBuilderEventMap } from './builder-events.js';
export type { BuilderElement } from './builder-element.js';
