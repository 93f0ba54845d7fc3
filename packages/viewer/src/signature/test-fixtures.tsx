import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { viewerCss } from '../styles.js';
import { SignatureDialog, type SignatureDialogLabels, type SignatureDialogProps } from './SignatureDialog.js';

export const labels: SignatureDialogLabels = {
  title: 'Add your signature',
  draw: 'Draw',
  type: 'Type',
  upload: 'Upload',
  clear: 'Clear',
  undo: 'Undo',
  typePlaceholder: 'Your name',
  typeLabel: 'Full name',
  uploadHint: 'Drop an image of your signature here',
  uploadButton: 'Choose an image',
  cancel: 'Cancel',
  apply: 'Apply',
  drawHint: 'Sign above the line',
  invalidImage: 'This file is not a PNG, JPEG or WebP image of a signature.',
};

/** The dialog inside a viewer root with the viewer's styles, as the viewer mounts it. */
function inViewer(props: SignatureDialogProps) {
  return (
    <div className="signet-viewer">
      <style>{viewerCss}</style>
      <SignatureDialog {...props} />
    </div>
  );
}

/**
 * Mounts an open dialog as the viewer does; `update` re-renders the same tree with other props (e.g. `open: false`),
 * so that React keeps or unmounts the dialog as it would in the viewer.
 */
export function renderDialog(props: Partial<SignatureDialogProps> = {}) {
  const onApply = vi.fn<(png: string) => void>();
  const onCancel = vi.fn<() => void>();
  const all: SignatureDialogProps = {
    open: true,
    kind: 'signature',
    fieldLabel: 'Signature of the customer',
    labels,
    onApply,
    onCancel,
    ...props,
  };
  const view = render(inViewer(all));
  const dialog = view.container.querySelector('dialog');
  if (!dialog) throw new Error('The dialog did not render');
  const update = (next: Partial<SignatureDialogProps>) => view.rerender(inViewer({ ...all, ...next }));
  return { ...view, dialog, onApply, onCancel, props: all, update };
}

/** The pad's canvas in a rendered dialog. */
export function padCanvas(root: ParentNode): HTMLCanvasElement {
  const canvas = root.querySelector<HTMLCanvasElement>('.signet-sig-canvas');
  if (!canvas) throw new Error('No signature pad');
  return canvas;
}

/**
 * Deletes `Element.prototype.checkVisibility`, as in Safari before 17.4, and returns what puts it back.
 * @example
 * beforeEach(() => removeCheckVisibility());
 */
export function removeCheckVisibility(): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(Element.prototype, 'checkVisibility');
  // Chromium has it: without it here, a test would not be testing its absence.
  if (!descriptor) throw new Error('This browser has no Element.checkVisibility to remove');
  delete (Element.prototype as Partial<Element>).checkVisibility;
  return () => Object.defineProperty(Element.prototype, 'checkVisibility', descriptor);
}
