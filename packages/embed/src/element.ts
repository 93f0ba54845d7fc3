import { configureHandwritingFont, configurePdfWorker, type ViewerMessages } from '@signet/viewer';
import { mount, type MountedViewer, type MountProps } from './mount.js';

/** The attributes of `<signet-signing-viewer>` and the properties that reflect them. */
const ATTRIBUTES = {
  'document-id': 'documentId',
  'api-key': 'apiKey',
  'base-url': 'baseUrl',
  locale: 'locale',
  'worker-src': 'workerSrc',
  'font-base': 'fontBase',
} as const;
type Attribute = keyof typeof ATTRIBUTES;
type ReflectedProperty = (typeof ATTRIBUTES)[Attribute];

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
  class SignetSigningViewer extends HTMLElement implements SigningViewerElement {
    static observedAttributes = Object.keys(ATTRIBUTES);
    #viewer: MountedViewer | undefined;
    #messages: Partial<ViewerMessages> | undefined;
    #renderQueued = false;

    declare documentId: string | null;
    declare apiKey: string | null;
    declare baseUrl: string | null;
    declare locale: string | null;
    declare workerSrc: string | null;
    declare fontBase: string | null;

    get messages() {
      return this.#messages;
    }
    set messages(value) {
      this.#messages = value;
      this.#queueRender();
    }

    connectedCallback() {
      // A framework may have set properties before the element was defined: they shadow the accessors until moved.
      for (const property of [...Object.values(ATTRIBUTES), 'messages'] as const) {
        if (Object.hasOwn(this, property)) {
          const value = this[property];
          delete (this as Partial<SigningViewerElement>)[property];
          (this as Record<string, unknown>)[property] = value;
        }
      }
      this.#queueRender();
    }

    disconnectedCallback() {
      this.#viewer?.unmount();
      this.#viewer = undefined;
    }

    attributeChangedCallback() {
      this.#queueRender();
    }

    // Several attributes set one after another (as a framework does) render once.
    #queueRender() {
      if (this.#renderQueued) return;
      this.#renderQueued = true;
      queueMicrotask(() => {
        this.#renderQueued = false;
        this.#render();
      });
    }

    #render() {
      if (!this.isConnected) return;
      const workerSrc = this.getAttribute('worker-src');
      if (workerSrc) configurePdfWorker(new URL(workerSrc, this.baseURI).href);
      const fontBase = this.getAttribute('font-base');
      if (fontBase) configureHandwritingFont(new URL(fontBase, this.baseURI));
      const documentId = this.getAttribute('document-id');
      const apiKey = this.getAttribute('api-key');
      if (!documentId || !apiKey) {
        this.#viewer?.unmount();
        this.#viewer = undefined;
        return;
      }
      const props: MountProps = {
        documentId,
        apiKey,
        baseUrl: this.getAttribute('base-url') ?? undefined,
        locale: this.getAttribute('locale') ?? undefined,
        messages: this.#messages,
      };
      if (this.#viewer) this.#viewer.update(props);
      else this.#viewer = mount(this, props);
    }
  }
  for (const [attribute, property] of Object.entries(ATTRIBUTES) as [Attribute, ReflectedProperty][]) {
    Object.defineProperty(SignetSigningViewer.prototype, property, {
      configurable: true,
      enumerable: true,
      get(this: HTMLElement) {
        return this.getAttribute(attribute);
      },
      set(this: HTMLElement, value: string | null | undefined) {
        if (value === null || value === undefined) this.removeAttribute(attribute);
        else this.setAttribute(attribute, String(value));
      },
    });
  }
  return SignetSigningViewer;
}

/**
 * Defines `<signet-signing-viewer>` (or `tagName`) unless it is already defined, and returns its class. Does
 * nothing where there is no DOM (a server rendering the page), so importing `@signet/embed` there is safe.
 * @example defineSigningViewerElement(); document.body.append(Object.assign(document.createElement('signet-signing-viewer'), { documentId, apiKey }));
 */
export function defineSigningViewerElement(tagName = 'signet-signing-viewer'): CustomElementConstructor | undefined {
  if (typeof HTMLElement === 'undefined' || typeof customElements === 'undefined') return undefined;
  const existing = customElements.get(tagName);
  if (existing) return existing;
  const elementClass = createElementClass();
  customElements.define(tagName, elementClass);
  return elementClass;
}
