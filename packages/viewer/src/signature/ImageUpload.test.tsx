import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { commands, page, server, userEvent } from 'vitest/browser';
import { findInkBounds } from './trim-ink.js';
import { labels, renderDialog } from './test-fixtures.js';
import { decodePng, inkPixels } from './test-input.js';

afterEach(cleanup);

/** An image file of white paper, `width`×`height` px, with `draw` painted on it. */
async function paperFile(
  name: string,
  type: 'image/png' | 'image/jpeg',
  width: number,
  height: number,
  draw?: (context: CanvasRenderingContext2D) => void,
): Promise<File> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  draw?.(context);
  const blob = await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((result) => (result ? resolve(result) : reject(new Error('toBlob failed'))), type, 0.92),
  );
  return new File([blob], name, { type });
}

/** A scan-like image: a dark stroke from (100, 140) to (400, 160) on white paper. */
function scannedSignature(type: 'image/png' | 'image/jpeg' = 'image/png'): Promise<File> {
  return paperFile(type === 'image/png' ? 'signature.png' : 'signature.jpg', type, 600, 300, (context) => {
    context.strokeStyle = '#1a1a2e';
    context.lineWidth = 8;
    context.lineCap = 'butt';
    context.beginPath();
    context.moveTo(100, 140);
    context.lineTo(400, 160);
    context.stroke();
  });
}

/** A blank page: paper and no ink. */
const blankPage = () => paperFile('blank.png', 'image/png', 200, 100);

const fileInput = () => screen.getByLabelText<HTMLInputElement>(labels.uploadButton);

/** Picks `file` in the dialog's file input, as the browser's file chooser would. */
async function upload(file: File) {
  if (server.provider !== 'webdriverio') return userEvent.upload(fileInput(), file);
  // WebKit's driver selects files by path: the test's file is written to disk under its name first.
  const bytes = new Uint8Array(await file.arrayBuffer());
  const base64 = btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));
  await commands.chooseFile(page.elementLocator(fileInput()).selector, file.name, base64);
}

async function openUploadTab() {
  await userEvent.click(screen.getByRole('tab', { name: labels.upload }));
}

test('an uploaded scan becomes a PNG of its ink on a transparent background', async () => {
  const { onApply } = renderDialog();
  await openUploadTab();
  const apply = screen.getByRole<HTMLButtonElement>('button', { name: labels.apply });
  expect(apply.disabled).toBe(true);

  await upload(await scannedSignature());
  await vi.waitFor(() => expect(apply.disabled).toBe(false));
  expect(screen.queryByRole('alert')).toBeNull();
  await userEvent.click(apply);

  await vi.waitFor(() => expect(onApply).toHaveBeenCalledOnce());
  const png = await decodePng(onApply.mock.calls[0]![0]);
  // Trimmed to the stroke (300 × ~28 px) plus padding, not the 600 × 300 page.
  expect(png.width).toBeGreaterThan(300);
  expect(png.width).toBeLessThan(320);
  expect(png.height).toBeLessThan(45);
  const ink = findInkBounds(png)!;
  expect(ink.x).toBeLessThanOrEqual(6);
  expect(png.width - (ink.x + ink.width)).toBeLessThanOrEqual(6);
  // The paper is gone (transparent corners), the ink is kept dark and opaque.
  expect(png.data[3]).toBe(0);
  expect(png.data[png.data.length - 1]).toBe(0);
  const middle = (Math.floor(png.height / 2) * png.width + Math.floor(png.width / 2)) * 4;
  expect(png.data[middle + 3]).toBe(255);
  expect(png.data[middle]).toBeLessThan(60);
});

test('a JPEG photo dropped on the area is accepted too', async () => {
  const { onApply } = renderDialog();
  await openUploadTab();
  const dataTransfer = new DataTransfer();
  dataTransfer.items.add(await scannedSignature('image/jpeg'));
  const area = fileInput().parentElement!;
  const drag = (type: string) =>
    act(() => void area.dispatchEvent(new DragEvent(type, { dataTransfer, bubbles: true, cancelable: true })));
  drag('dragenter');
  drag('dragover');
  expect(area.hasAttribute('data-dragging')).toBe(true);
  drag('drop');
  expect(area.hasAttribute('data-dragging')).toBe(false);

  // The preview is drawn on a canvas (no data: image, for pages whose CSP allows none), from the PNG it will apply.
  const preview = await vi.waitFor(() => {
    const canvas = area.querySelector('canvas');
    if (!canvas || canvas.width === 0) throw new Error('No preview yet');
    return canvas;
  });

  await userEvent.click(screen.getByRole('button', { name: labels.apply }));
  await vi.waitFor(() => expect(onApply).toHaveBeenCalledOnce());
  const png = await decodePng(onApply.mock.calls[0]![0]);
  expect([preview.width, preview.height]).toEqual([png.width, png.height]);
  expect(png.height).toBeLessThan(60);
  // JPEG noise around the paper is knocked out with the paper.
  expect(inkPixels(png)).toBeLessThan(png.width * png.height * 0.7);
  expect(png.data[3]).toBe(0);
});

test('a file that is not an image shows an alert and leaves Apply disabled', async () => {
  renderDialog();
  await openUploadTab();
  await upload(new File(['%PDF-1.7 not an image'], 'contract.pdf', { type: 'application/pdf' }));
  expect((await screen.findByRole('alert')).textContent).toBe(labels.invalidImage);
  expect(screen.getByRole<HTMLButtonElement>('button', { name: labels.apply }).disabled).toBe(true);
});

test('a corrupt image or a blank page shows the alert, which a good file clears', async () => {
  renderDialog();
  await openUploadTab();
  const apply = screen.getByRole<HTMLButtonElement>('button', { name: labels.apply });
  await upload(new File([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], 'broken.png', { type: 'image/png' }));
  await screen.findByRole('alert');

  await upload(await scannedSignature());
  await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  expect(apply.disabled).toBe(false);

  await upload(await blankPage());
  await screen.findByRole('alert');
  expect(apply.disabled).toBe(true);
});
