import { configureHandwritingFont, configurePdfWorker, type ViewerMessages } from '@signet/viewer';
import { mount, type MountProps } from './mount.js';
import { createMountedElementClass, defineMountedElement } from './mounted-element.js';

/** The attributes of `<signet-signing-viewer>` and the properties that reflect them. */
const ATTRIBUTES = {
  'document-id': 'documentId',
  'api-key': 'apiKey',
  'base-url': 'baseUrl',
  locale: 'locale',
  'worker-src': 'workerSrc',
  'font-base': 'fontBase',
} as const;

/**
 * `<signet-signing-viewer document-id api-key base-url locale worker-src font-base>`: Signet's signing viewer as a
 * custom element. Each attribute has a property of the same name in camelCase that reflects it (`documentId`,
 * `apiKey`, `baseUrl`, `locale`, `workerSrc`, `fontBase`); `messages` (text overrides) is a property only. It renders
 * once `document-id` and `api-key` are set, again when any of them changes, and dispatches `signet:*` events.
 * `worker-src` and `font-base` set where pdf.js's worker and the handwriting font load from, for the whole page.
 */
export interface SigningViewerElement extends HTMLElement {
  documentId: string | null;
  apiKey: string | null;
  baseUrl: string | null;
  locale: string | null;
  workerSrc: string | null;
  fontBase: string | null;
  messages: Partial<ViewerMessages> | undefined;
}

declare global {
  interface HTMLElementTagNameMap {
    'signet-signing-viewer': SigningViewerElement;
  }
}

function createElementClass(): CustomElementConstructor {
  return createMountedElementClass<MountProps>({
    attributes: ATTRIBUTES,
    properties: ['messages'],
    props(element, properties) {
      const workerSrc = element.getAttribute('worker-src');
      if (workerSrc) configurePdfWorker(new URL(workerSrc, element.baseURI).href);
      const fontBase = element.getAttribute('font-base');
      if (fontBase) configureHandwritingFont(new URL(fontBase, element.baseURI));
      const documentId = element.getAttribute('document-id');
      const apiKey = element.getAttribute('api-key');
      if (!documentId || !apiKey) return undefined;
      return {
        documentId,
        apiKey,
        baseUrl: element.getAttribute('base-url') ?? undefined,
        locale: element.getAttribute('locale') ?? undefined,
        messages: properties.get('messages') as Partial<ViewerMessages> | undefined,
      };
    },
    mount,
  });
}

/**
 * Defines `<signet-signing-viewer>` (or `tagName`) unless it is already defined, and returns its class. Does
 * nothing where there is no DOM (a server rendering the page), so importing `@signet/embed` there is safe.
 * @example defineSigningViewerElement(); document.body.append(Object.assign(document.createElement('signet-signing-viewer'), { documentId, apiKey }));
 */
export function defineSigningViewerElement(tagName = 'signet-signing-viewer'): CustomElementConstructor | undefined {
  return defineMountedElement(tagName, createElementClass);
}
