import type { DeclineResult, FieldValue, SdkDocument, SubmissionResult } from '@signet/contract';
import type { SigningViewerProps, UnavailableReason } from '@signet/viewer';

/**
 * The DOM events of `<signet-signing-viewer>` (and of an element given to `mount`), by name, with their `detail`.
 * They bubble and are composed: a listener on the element, on any ancestor or on `document` receives them.
 * @example element.addEventListener('signet:complete', (event) => save(event.detail.result.submissionId));
 */
export interface SignetEventMap {
  /** The document and its PDF are loaded and the fields can be filled in. */
  'signet:ready': CustomEvent<{ document: SdkDocument }>;
  /** The signer changed a field. */
  'signet:field-change': CustomEvent<{ fieldId: string; value: FieldValue }>;
  /** The submission was accepted. */
  'signet:complete': CustomEvent<{ result: SubmissionResult }>;
  /** The signer declined to sign, with a reason: the document is now `declined`. */
  'signet:decline': CustomEvent<{ result: DeclineResult }>;
  /** The signed PDF is ready: its download URL. Once per viewer. */
  'signet:sealed': CustomEvent<{ signedDocumentUrl: string }>;
  /** The document can no longer be signed: voided or erased by the sender, or expired (the viewer says so). */
  'signet:unavailable': CustomEvent<{ reason: UnavailableReason }>;
  /** Loading or submitting failed (after the client's retries). */
  'signet:error': CustomEvent<{ error: Error }>;
}

declare global {
  // Typed `addEventListener('signet:…')` on every element, and on the document they bubble up to.
  interface HTMLElementEventMap extends SignetEventMap {}
  interface DocumentEventMap extends SignetEventMap {}
}

type ViewerCallbacks = Pick<SigningViewerProps, 'onReady' | 'onFieldChange' | 'onComplete' | 'onDecline' | 'onSealed' | 'onUnavailable' | 'onError'>;

function dispatch<K extends keyof SignetEventMap>(target: EventTarget, type: K, detail: SignetEventMap[K]['detail']): void {
  target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}

/**
 * The viewer's callbacks as DOM events on `target`, each after the host's own callback (if `callbacks` has one).
 * @example <SigningViewer {...props} {...eventCallbacks(element, props)} />
 */
export function eventCallbacks(target: EventTarget, callbacks: ViewerCallbacks = {}): Required<ViewerCallbacks> {
  return {
    onReady(document) {
      callbacks.onReady?.(document);
      dispatch(target, 'signet:ready', { document });
    },
    onFieldChange(fieldId, value) {
      callbacks.onFieldChange?.(fieldId, value);
      dispatch(target, 'signet:field-change', { fieldId, value });
    },
    onComplete(result) {
      callbacks.onComplete?.(result);
      dispatch(target, 'signet:complete', { result });
    },
    onDecline(result) {
      callbacks.onDecline?.(result);
      dispatch(target, 'signet:decline', { result });
    },
    onSealed(signedDocumentUrl) {
      callbacks.onSealed?.(signedDocumentUrl);
      dispatch(target, 'signet:sealed', { signedDocumentUrl });
    },
    onUnavailable(reason) {
      callbacks.onUnavailable?.(reason);
      dispatch(target, 'signet:unavailable', { reason });
    },
    onError(error) {
      callbacks.onError?.(error);
      dispatch(target, 'signet:error', { error });
    },
  };
}
