import type { FieldDefinition, ManagedDocument } from '@signet/contract';
import type { SigningBuilderEvents } from '@signet/viewer/builder';

/**
 * The DOM events of `<signet-builder>` (and of an element given to `mountBuilder`), by name, with their `detail`.
 * They bubble and are composed, as the signing viewer's: a listener on the element, an ancestor or `document` gets them.
 * @example builder.addEventListener('signet:send', (event) => openSigning(event.detail.document.id));
 */
export interface SignetBuilderEventMap {
  /** The fields changed (an edit, undo or redo): all of them, as they are now. */
  'signet:change': CustomEvent<{ fields: FieldDefinition[] }>;
  /** A change was saved: the draft's new version. */
  'signet:save': CustomEvent<{ version: number }>;
  /** The draft was sent: the document, now signable. */
  'signet:send': CustomEvent<{ document: ManagedDocument }>;
  /** Loading, saving or sending failed (a conflict too: its `code` is `PRECONDITION_FAILED`). */
  'signet:error': CustomEvent<{ error: Error }>;
}

declare global {
  interface HTMLElementEventMap extends SignetBuilderEventMap {}
  interface DocumentEventMap extends SignetBuilderEventMap {}
}

function dispatch<K extends keyof SignetBuilderEventMap>(target: EventTarget, type: K, detail: SignetBuilderEventMap[K]['detail']): void {
  target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}

/**
 * The builder's callbacks as DOM events on `target`, each after the host's own callback (if `callbacks` has one).
 * @example <SigningBuilder {...props} {...builderEventCallbacks(element, props)} />
 */
export function builderEventCallbacks(target: EventTarget, callbacks: SigningBuilderEvents = {}): Required<SigningBuilderEvents> {
  return {
    onChange(fields) {
      callbacks.onChange?.(fields);
      dispatch(target, 'signet:change', { fields });
    },
    onSave(result) {
      callbacks.onSave?.(result);
      dispatch(target, 'signet:save', { version: result.version });
    },
    onSend(document) {
      callbacks.onSend?.(document);
      dispatch(target, 'signet:send', { document });
    },
    onError(error) {
      callbacks.onError?.(error);
      dispatch(target, 'signet:error', { error });
    },
  };
}
