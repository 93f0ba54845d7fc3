import type { FieldDefinition, FieldType } from '@signet/contract';
import { configurePdfWorker } from '@signet/viewer';
import { mountBuilder, type BuilderMountProps, type MountedBuilder } from './builder-mount.js';

/** The attributes of `<signet-builder>` and the properties that reflect them. */
const ATTRIBUTES = {
  'document-id': 'documentId',
  'api-key': 'apiKey',
  'base-url': 'baseUrl',
  'allow-send': 'allowSend',
  locale: 'locale',
  'field-types': 'fieldTypes',
  signers: 'signers',
  'worker-src': 'workerSrc',
} as const;
type Attribute = keyof typeof ATTRIBUTES;
type ReflectedProperty = (typeof ATTRIBUTES)[Attribute];

/**
 * `<signet-builder document-id api-key base-url allow-send locale field-types signers worker-src>`: Signet's builder
 * as a custom element. Each attribute has a camelCase property that reflects it as a string; `allow-send` is a
 * boolean attribute (present: a Send button), `field-types` and `signers` comma-separated lists (field types, signer
 * ids); `initialFields` is a property only. It renders once `document-id` and `api-key` are set, again when any
 * changes, and dispatches the `signet:*` events of `SignetBuilderEventMap`.
 */
export interface BuilderElement extends HTMLElement {
  documentId: string | null;
  apiKey: string | null;
  baseUrl: string | null;
  allowSend: string | null;
  locale: string | null;
  fieldTypes: string | null;
  signers: string | null;
  workerSrc: string | null;
  initialFields: FieldDefinition[] | undefined;
}

declare global {
  interface HTMLElementTagNameMap {
    'signet-builder': BuilderElement;
  }
}

/** A comma-separated attribute as a list (blank entries dropped); `undefined` when the attribute is absent. */
function list(value: string | null): string[] | undefined {
  if (value === null) return undefined;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function createElementClass(): CustomElementConstructor {
  class SignetBuilder extends HTMLElement implements BuilderElement {
    static observedAttributes = Object.keys(ATTRIBUTES);
    #builder: MountedBuilder | undefined;
    #initialFields: FieldDefinition[] | undefined;
    #renderQueued = false;

    declare documentId: string | null;
    declare apiKey: string | null;
    declare baseUrl: string | null;
    declare allowSend: string | null;
    declare locale: string | null;
    declare fieldTypes: string | null;
    declare signers: string | null;
    declare workerSrc: string | null;

    get initialFields() {
      return this.#initialFields;
    }
    set initialFields(value) {
      this.#initialFields = value;
      this.#queueRender();
    }

    connectedCallback() {
      // A framework may have set properties before the element was defined: they shadow the accessors until moved.
      for (const property of [...Object.values(ATTRIBUTES), 'initialFields'] as const) {
        if (Object.hasOwn(this, property)) {
          const value = this[property];
          delete (this as Partial<BuilderElement>)[property];
          (this as Record<string, unknown>)[property] = value;
        }
      }
      this.#queueRender();
    }

    disconnectedCallback() {
      this.#builder?.unmount();
      this.#builder = undefined;
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
      const documentId = this.getAttribute('document-id');
      const apiKey = this.getAttribute('api-key');
      if (!documentId || !apiKey) {
        this.#builder?.unmount();
        this.#builder = undefined;
        return;
      }
      const props: BuilderMountProps = {
        documentId,
        apiKey,
        baseUrl: this.getAttribute('base-url') ?? undefined,
        allowSend: this.hasAttribute('allow-send') && this.getAttribute('allow-send') !== 'false',
        locale: this.getAttribute('locale') ?? undefined,
        fieldTypes: list(this.getAttribute('field-types')) as FieldType[] | undefined,
        signers: list(this.getAttribute('signers')),
        initialFields: this.#initialFields,
      };
      if (this.#builder) this.#builder.update(props);
      else this.#builder = mountBuilder(this, props);
    }
  }
  for (const [attribute, property] of Object.entries(ATTRIBUTES) as [Attribute, ReflectedProperty][]) {
    Object.defineProperty(SignetBuilder.prototype, property, {
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
  return SignetBuilder;
}

/**
 * Defines `<signet-builder>` (or `tagName`) unless it is already defined, and returns its class. Does nothing where
 * there is no DOM (a server rendering the page), so importing `@signet/embed/builder` there is safe.
 * @example defineBuilderElement(); document.body.append(Object.assign(document.createElement('signet-builder'), { documentId, apiKey }));
 */
export function defineBuilderElement(tagName = 'signet-builder'): CustomElementConstructor | undefined {
  if (typeof HTMLElement === 'undefined' || typeof customElements === 'undefined') return undefined;
  const existing = customElements.get(tagName);
  if (existing) return existing;
  const elementClass = createElementClass();
  customElements.define(tagName, elementClass);
  return elementClass;
}
