import type { FieldDefinition, FieldType } from '@signet/contract';
import { configurePdfWorker } from '@signet/viewer';
import { mountBuilder, type BuilderMountProps } from './builder-mount.js';
import { createMountedElementClass, defineMountedElement } from './mounted-element.js';

/** The attributes of `<signet-builder>` and the properties that reflect them. */
const ATTRIBUTES = {
  'document-id': 'documentId',
  'template-id': 'templateId',
  'api-key': 'apiKey',
  'base-url': 'baseUrl',
  'allow-send': 'allowSend',
  locale: 'locale',
  'field-types': 'fieldTypes',
  signers: 'signers',
  'worker-src': 'workerSrc',
} as const;

/**
 * `<signet-builder document-id|template-id api-key base-url allow-send locale field-types signers worker-src>`: Signet's builder
 * as a custom element. Each attribute has a camelCase property that reflects it as a string; `allow-send` is a
 * boolean attribute (present: a Send button), `field-types` and `signers` comma-separated lists (field types, signer
 * ids); `initialFields` is a property only. It renders once `api-key` and `document-id` (a draft) or `template-id` (a
 * template, docs/templates.md) are set, again when any changes, and dispatches the `signet:*` events of
 * `SignetBuilderEventMap`.
 */
export interface BuilderElement extends HTMLElement {
  documentId: string | null;
  templateId: string | null;
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
  return createMountedElementClass<BuilderMountProps>({
    attributes: ATTRIBUTES,
    properties: ['initialFields'],
    props(element, properties) {
      const workerSrc = element.getAttribute('worker-src');
      if (workerSrc) configurePdfWorker(new URL(workerSrc, element.baseURI).href);
      const documentId = element.getAttribute('document-id');
      const templateId = element.getAttribute('template-id');
      const apiKey = element.getAttribute('api-key');
      if (!(documentId || templateId) || !apiKey) return undefined;
      return {
        ...(templateId ? { templateId } : { documentId: documentId! }),
        apiKey,
        baseUrl: element.getAttribute('base-url') ?? undefined,
        allowSend: element.hasAttribute('allow-send') && element.getAttribute('allow-send') !== 'false',
        locale: element.getAttribute('locale') ?? undefined,
        fieldTypes: list(element.getAttribute('field-types')) as FieldType[] | undefined,
        signers: list(element.getAttribute('signers')),
        initialFields: properties.get('initialFields') as FieldDefinition[] | undefined,
      };
    },
    mount: mountBuilder,
  });
}

/**
 * Defines `<signet-builder>` (or `tagName`) unless it is already defined, and returns its class. Does nothing where
 * there is no DOM (a server rendering the page), so importing `@signet/embed/builder` there is safe.
 * @example defineBuilderElement(); document.body.append(Object.assign(document.createElement('signet-builder'), { documentId, apiKey }));
 */
export function defineBuilderElement(tagName = 'signet-builder'): CustomElementConstructor | undefined {
  return defineMountedElement(tagName, createElementClass);
}
