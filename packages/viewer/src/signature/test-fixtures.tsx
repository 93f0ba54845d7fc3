import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { SignatureDialog, type SignatureDialogLabels, type SignatureDialogProps } from './SignatureDialog.js';
import { signatureCss } from './styles.js';

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

/** Mounts an open dialog inside a viewer root with its styles, as the viewer does. */
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
  const view = render(
    <div className="signet-viewer">
      <style>{signatureCss}</style>
      <SignatureDialog {...all} />
    </div>,
  );
  const dialog = view.container.querySelector('dialog');
  if (!dialog) throw new Error('The dialog did not render');
  return { ...view, dialog, onApply, onCancel, props: all };
}

/** The pad's canvas in a rendered dialog. */
export function padCanvas(root: ParentNode): HTMLCanvasElement {
  const canvas = root.querySelector<HTMLCanvasElement>('.signet-sig-canvas');
  if (!canvas) throw new Error('No signature pad');
  return canvas;
}
