import { useEffect, useState } from 'react';
import type { SignatureDialog, SignatureDialogProps } from './SignatureDialog.js';

// The dialog, signature_pad and the handwriting font's code are a chunk of their own: a signer who never opens the
// dialog never downloads them, and the page's first paint does not wait for them.
let loaded: typeof SignatureDialog | undefined;
let loading: Promise<typeof SignatureDialog> | undefined;

function loadDialog(): Promise<typeof SignatureDialog> {
  loading ??= import('./SignatureDialog.js').then(
    (module) => (loaded = module.SignatureDialog),
    (error: unknown) => {
      // A failed download is asked for again the next time the dialog opens.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * Starts downloading the signature dialog's chunk when the browser is idle, so that it is there by the time the
 * signer opens it. Call it once the document is on screen.
 * @example useEffect(() => { if (ready) prefetchSignatureDialog(); }, [ready]);
 */
export function prefetchSignatureDialog(): void {
  const idle = globalThis.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 200));
  idle(() => void loadDialog().catch(() => undefined));
}

/**
 * The signature dialog, loaded on first use (see {@link prefetchSignatureDialog}): nothing shows until its chunk has
 * arrived, and a chunk that cannot be downloaded cancels the opening (`onCancel`, which gives the focus back).
 * @example <LazySignatureDialog open kind="signature" fieldLabel="Signature" labels={labels} onCancel={close} onApply={apply} />
 */
export function LazySignatureDialog(props: SignatureDialogProps) {
  const [Dialog, setDialog] = useState(() => loaded);
  const { open, onCancel } = props;
  useEffect(() => {
    if (Dialog || !open) return;
    let current = true;
    loadDialog().then(
      (component) => current && setDialog(() => component),
      () => current && onCancel(),
    );
    return () => {
      current = false;
    };
  }, [Dialog, open, onCancel]);
  return Dialog && open ? <Dialog {...props} /> : null;
}
