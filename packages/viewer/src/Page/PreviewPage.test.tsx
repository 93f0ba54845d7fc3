import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { renderViewer, untilReady } from '../test-support/render-viewer.js';

afterEach(() => cleanup());

const rectOf = (element: Element) => {
  const { top, left, width, height } = element.getBoundingClientRect();
  return { top, left, width, height };
};

/** Page 1's preview image as the viewer shows it before pdf.js has opened the file. */
async function previewOnScreen(): Promise<HTMLImageElement> {
  let image: HTMLImageElement | null = null;
  await waitFor(
    () => {
      image = document.querySelector<HTMLImageElement>('[data-preview-page="1"] img.signet-page-preview');
      expect(image?.complete && image.naturalWidth > 0).toBe(true);
    },
    { timeout: 15_000 },
  );
  return image!;
}

describe('page 1 preview', () => {
  it('shows page 1 from the server preview while the PDF is held back, where pdf.js then draws it', async () => {
    const doc = await commands.createDocument({ pages: 2 });
    await commands.holdFile(doc.documentId);
    try {
      const { events } = await renderViewer({ document: doc });
      const image = await previewOnScreen();
      // Two pixels per point of a US Letter page (612 × 792 pt).
      expect([image.naturalWidth, image.naturalHeight]).toEqual([1224, 1584]);
      expect(image.getAttribute('elementtiming')).toBe('signet-page-preview');
      const previewBox = rectOf(image.closest('.signet-page')!);
      // Fitted to the width like the pages will be: 900 px wide viewer, 24 px padding, a scrollbar's gutter.
      expect(previewBox.width).toBeGreaterThan(800);
      expect(previewBox.height / previewBox.width).toBeCloseTo(792 / 612, 2);
      // Nothing of pdf.js yet: no canvas, no page list, not ready; the load is announced.
      expect(document.querySelector('canvas')).toBeNull();
      expect(document.querySelector('[data-page-number]')).toBeNull();
      expect(events.ready).toBe(0);
      expect(document.querySelector('.signet-progress--top[role="progressbar"]')?.getAttribute('aria-label')).toBe('Loading PDF');
      // But page 1's fields are on the image already: the signer can start while pdf.js starts.
      const name = await screen.findByRole('textbox', { name: 'Full legal name' });
      const fieldBox = rectOf(name);
      await userEvent.click(name);
      await userEvent.keyboard('Ada Love');

      await commands.releaseFile(doc.documentId);
      await untilReady();
      // The same field, with what was typed, its focus and its caret, where it was: typing goes on.
      expect(screen.getByRole('textbox', { name: 'Full legal name' })).toBe(name);
      expect(document.activeElement).toBe(name);
      await userEvent.keyboard('lace');
      expect((name as HTMLInputElement).value).toBe('Ada Lovelace');
      const movedBox = rectOf(name);
      for (const side of ['top', 'left', 'width', 'height'] as const) expect(Math.abs(movedBox[side] - fieldBox[side])).toBeLessThanOrEqual(1);
      const page1 = document.querySelector('[data-page-number="1"]')!;
      // Drawn exactly where the preview was: the switch moves nothing.
      const drawnBox = rectOf(page1);
      for (const side of ['top', 'left', 'width', 'height'] as const) expect(Math.abs(drawnBox[side] - previewBox[side])).toBeLessThanOrEqual(1);
      // The same image waits under page 1's canvas, hidden once the canvas is painted.
      const underlay = page1.querySelector<HTMLImageElement>('img.signet-page-preview')!;
      expect(underlay.src).toBe(image.src);
      await waitFor(() => expect(page1.hasAttribute('data-painted')).toBe(true));
      expect(getComputedStyle(underlay).display).toBe('none');
      expect(document.querySelector('[data-preview-page]')).toBeNull();
    } finally {
      await commands.releaseFile(doc.documentId);
    }
  });

  it('without a preview the page is drawn by pdf.js as before', async () => {
    const doc = await commands.createDocument({ pages: 1 });
    await commands.withoutPreview(doc.documentId);
    const { events } = await renderViewer({ document: doc });
    await untilReady();
    expect(document.querySelector('img.signet-page-preview')).toBeNull();
    expect(events.errors).toEqual([]);
    const requests = await commands.takeRequests(doc.documentId);
    expect(requests.filter((request) => request.path.endsWith('/preview'))).toHaveLength(1);
  });

  it('asks for the preview once, as the metadata arrives, and keeps it for page 1 after scrolling away and back', async () => {
    const doc = await commands.createDocument({ pages: 6 });
    await renderViewer({ document: doc, height: 500 });
    await untilReady();
    await waitFor(() => expect(document.querySelector('[data-page-number="1"] img.signet-page-preview')).toBeTruthy());
    const pages = document.querySelector<HTMLElement>('.signet-pages')!;
    pages.scrollTop = pages.scrollHeight;
    // Far away, page 1 gives its canvas back and shows its preview again (its box stays: it has fields).
    await waitFor(() => expect(document.querySelector('[data-page-number="1"]')?.hasAttribute('data-painted')).toBe(false), { timeout: 10_000 });
    const underlay = document.querySelector<HTMLImageElement>('[data-page-number="1"] img.signet-page-preview')!;
    expect(getComputedStyle(underlay).display).toBe('block');
    pages.scrollTop = 0;
    // Drawn again by pdf.js: WebKitGTK on Xvfb draws in software, in more than waitFor's default second when busy.
    await waitFor(() => expect(document.querySelector('[data-page-number="1"]')?.hasAttribute('data-painted')).toBe(true), { timeout: 10_000 });
    const requests = await commands.takeRequests(doc.documentId);
    expect(requests.filter((request) => request.path.endsWith('/preview'))).toHaveLength(1);
  });
});
