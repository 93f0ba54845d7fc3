import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import type { CreatedDocument, RecordedRequest } from '../test-support/commands.js';
import { completeThroughApi, fillAll } from '../test-support/fill-fields.js';
import { renderViewer, untilReady } from '../test-support/render-viewer.js';

afterEach(() => {
  cleanup();
  showPage();
});

const PREPARING = 'Preparing your signed copy…';
const downloadLink = () => screen.findByRole('link', { name: 'Download signed PDF' }, { timeout: 10_000 });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The viewer's asks for the document (`GET /sdk/documents/{id}`) the server saw since the last call. */
async function asksFor(doc: CreatedDocument): Promise<RecordedRequest[]> {
  const requests = await commands.takeRequests(doc.documentId);
  return requests.filter((request) => request.method === 'GET' && request.path === `/sdk/documents/${doc.documentId}`);
}

/** Collects the asks for `doc` until there are `count` of them. */
async function untilAsks(doc: CreatedDocument, count: number, asks: RecordedRequest[] = []): Promise<RecordedRequest[]> {
  await waitFor(
    async () => {
      asks.push(...(await asksFor(doc)));
      expect(asks.length).toBeGreaterThanOrEqual(count);
    },
    { timeout: 15_000 },
  );
  return asks;
}

/** The page as the browser reports it when the signer switches to another tab (and `showPage` undoes it). */
function hidePage() {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
}
function showPage() {
  if (!Object.prototype.hasOwnProperty.call(document, 'visibilityState')) return;
  delete (document as { visibilityState?: unknown }).visibilityState;
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
}

/** A document completed through the API whose seal the viewer does not see until `commands.seal`. */
async function completedDocument(): Promise<CreatedDocument> {
  const doc = await commands.createDocument({ pages: 1 });
  await commands.holdSeal(doc.documentId);
  await completeThroughApi(doc);
  await commands.takeRequests(doc.documentId);
  return doc;
}

// Sealing runs the real seal worker in the test server: the first seal of a run starts its PDF pool (seconds).
describe('the signed copy', { timeout: 60_000 }, () => {
  it('after submitting: "Preparing your signed copy…", then a download link to the sealed PDF', async () => {
    const { doc, events } = await renderViewer({ props: { signedCopyPolling: { baseDelayMs: 50, maxDelayMs: 200 } } });
    await commands.holdSeal(doc.documentId);
    await untilReady();
    await fillAll();
    await userEvent.click(screen.getByRole('button', { name: 'Finish and submit' }));
    await screen.findByText('Document signed', {}, { timeout: 10_000 });
    expect(screen.getByText(PREPARING)).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();

    const sha256 = await commands.seal(doc.documentId);
    const link = await downloadLink();
    expect(screen.queryByText(PREPARING)).toBeNull();
    const href = link.getAttribute('href')!;
    expect(href).toMatch(new RegExp(`^${doc.baseUrl}/sdk/documents/${doc.documentId}/signed\\.pdf\\?token=`));
    expect(link.hasAttribute('download')).toBe(true);
    expect(events.sealed).toEqual([href]);

    // The link is the sealed PDF itself (that it arrives as a download is the e2e suite's to show: a page cannot
    // read `Content-Disposition` across origins).
    const response = await fetch(href);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    expect(Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')).toBe(sha256);

    // Reached with Tab from the toolbar, with the viewer's visible focus ring.
    screen.getByRole('button', { name: 'Zoom in' }).focus();
    for (let step = 0; step < 6 && document.activeElement !== link; step++) await userEvent.tab();
    expect(document.activeElement).toBe(link);
    expect(link.matches(':focus-visible')).toBe(true);
    expect(getComputedStyle(link).outlineStyle).toBe('solid');
  });

  it('waits for the seal, asking again after longer and longer pauses, and stops asking once unmounted', async () => {
    const doc = await completedDocument();
    const polling = { baseDelayMs: 100, maxDelayMs: 400, giveUpAfterMs: 60_000 };
    const { view } = await renderViewer({ document: doc, props: { signedCopyPolling: polling } });
    await screen.findByText('Already signed');
    expect(screen.getByText(PREPARING)).toBeTruthy();

    // The viewer's load, then four asks: each at least its pause after the one before (100, 200, 400, 400 ms).
    const asks = await untilAsks(doc, 5);
    const gaps = asks.slice(1, 5).map((ask, index) => ask.at - asks[index]!.at);
    // The server's clock counts whole milliseconds: a pause can look 1 ms short.
    [100, 200, 400, 400].forEach((pause, index) => expect(gaps[index]).toBeGreaterThanOrEqual(pause - 1));
    expect(screen.getByText(PREPARING)).toBeTruthy();

    view.unmount();
    // An ask already on its way may still arrive; after that, several of the longest pauses pass without one.
    await pause(100);
    await asksFor(doc);
    await pause(3 * polling.maxDelayMs);
    expect(await asksFor(doc)).toEqual([]);
  });

  it('a hidden page asks nothing; shown again, it asks and picks up the seal', async () => {
    const doc = await completedDocument();
    const polling = { baseDelayMs: 50, maxDelayMs: 100 };
    const { events } = await renderViewer({ document: doc, props: { signedCopyPolling: polling } });
    await screen.findByText(PREPARING);
    await untilAsks(doc, 3);

    hidePage();
    await pause(100);
    await asksFor(doc);
    await pause(8 * polling.maxDelayMs);
    expect(await asksFor(doc)).toEqual([]);

    await commands.seal(doc.documentId);
    expect(screen.getByText(PREPARING)).toBeTruthy();
    showPage();
    await downloadLink();
    expect(events.sealed).toHaveLength(1);
  });

  it('gives up after its time and says the sender will have the copy', async () => {
    const doc = await completedDocument();
    // Asks after 20, 40, 40, 40 and 40 ms: the waits reach 150 ms with the fifth.
    const polling = { baseDelayMs: 20, maxDelayMs: 40, giveUpAfterMs: 150 };
    await renderViewer({ document: doc, props: { signedCopyPolling: polling } });
    await screen.findByText('Your signed copy is taking longer than usual. It will be available from the sender.', {}, { timeout: 10_000 });
    expect(screen.queryByText(PREPARING)).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();

    await pause(10 * polling.maxDelayMs);
    // The viewer's load and the five asks, no more.
    expect(await asksFor(doc)).toHaveLength(6);
  });

  it('a document sealed before it is opened shows its link at once, without asking again', async () => {
    const doc = await completedDocument();
    await commands.seal(doc.documentId);
    const polling = { baseDelayMs: 20, maxDelayMs: 40 };
    const { events } = await renderViewer({ document: doc, props: { signedCopyPolling: polling } });
    await screen.findByText('Already signed');
    const link = await downloadLink();
    expect(events.sealed).toEqual([link.getAttribute('href')]);
    await pause(10 * polling.maxDelayMs);
    // The viewer's load only.
    expect(await asksFor(doc)).toHaveLength(1);
    expect(screen.queryByText(PREPARING)).toBeNull();
  });
});
