import { queries, waitFor, within } from '@testing-library/dom';
import { afterEach, describe, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import type { SignetEventMap } from './index.js';
import { mount, type SigningViewerElement } from './index.js';
import type { CreatedDocument } from './test-support/commands.js';

afterEach(() => document.body.replaceChildren());

/** The shadow root's content as a container for Testing Library's queries (which do not cross shadow boundaries). */
function inside(host: Element) {
  return within(host.shadowRoot as unknown as HTMLElement, queries);
}

async function untilReady(host: Element): Promise<void> {
  await waitFor(() => expect(host.shadowRoot?.querySelector('[data-page-number="1"] canvas[data-rendered="true"]')).toBeTruthy(), {
    timeout: 15_000,
  });
  await inside(host).findByRole('textbox', { name: 'Full legal name' });
}

/** Every `signet:*` event that reaches `document` (so only those that bubble out of the shadow root and the element). */
function recordEvents() {
  const seen: Array<{ type: string; detail: unknown; target: EventTarget | null; composed: boolean }> = [];
  const types = ['signet:ready', 'signet:field-change', 'signet:complete', 'signet:decline', 'signet:sealed', 'signet:unavailable', 'signet:error'] as const;
  for (const type of types) {
    document.addEventListener(type, (event: SignetEventMap[typeof type]) => {
      seen.push({ type, detail: event.detail, target: event.target, composed: event.composed });
    });
  }
  return seen;
}

function element(doc: CreatedDocument, attributes: Record<string, string> = {}): SigningViewerElement {
  const host = document.createElement('signet-signing-viewer');
  const all = { 'document-id': doc.documentId, 'api-key': doc.apiKey, 'base-url': doc.baseUrl, ...attributes };
  for (const [name, value] of Object.entries(all)) host.setAttribute(name, value);
  host.style.height = '700px';
  return host;
}

async function typeSignature(host: Element, fieldName: string, text: string): Promise<void> {
  await userEvent.click(inside(host).getByRole('button', { name: fieldName }));
  const dialog = await inside(host).findByRole('dialog');
  await userEvent.click(within(dialog).getByRole('tab', { name: 'Type' }));
  await userEvent.fill(within(dialog).getByRole('textbox', { name: 'Your name' }), text);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
  await waitFor(() => expect(inside(host).queryByRole('dialog')).toBeNull());
}

describe('<signet-signing-viewer>', () => {
  it('renders the document of its attributes in an open shadow root and says it is ready', async () => {
    const doc = await commands.createDocument();
    const events = recordEvents();
    const host = element(doc);
    document.body.append(host);
    await untilReady(host);
    expect(host.shadowRoot?.mode).toBe('open');
    expect(host.querySelector('*')).toBeNull();
    const ready = events.filter((event) => event.type === 'signet:ready');
    expect(ready).toHaveLength(1);
    expect(ready[0]).toMatchObject({ target: host, composed: true });
    expect((ready[0]!.detail as { document: { metadata: { id: string } } }).document.metadata.id).toBe(doc.documentId);
  });

  it('takes its attributes as properties, reflects them, and renders again when one changes', async () => {
    const doc = await commands.createDocument();
    const host = document.createElement('signet-signing-viewer');
    host.style.height = '700px';
    Object.assign(host, { documentId: doc.documentId, apiKey: doc.apiKey, baseUrl: doc.baseUrl, locale: 'en' });
    expect(host.getAttribute('document-id')).toBe(doc.documentId);
    expect(host.getAttribute('api-key')).toBe(doc.apiKey);
    document.body.append(host);
    await untilReady(host);
    expect(host.shadowRoot!.querySelector('.signet-viewer')!.getAttribute('lang')).toBe('en');

    host.setAttribute('locale', 'de');
    expect(host.locale).toBe('de');
    // German's texts load as a chunk of their own: on a loaded machine that takes more than waitFor's default second.
    await waitFor(() => expect(host.shadowRoot!.querySelector('.signet-viewer')!.getAttribute('lang')).toBe('de'), { timeout: 15_000 });
    host.messages = { retry: 'Nochmal' };
    expect(host.messages).toEqual({ retry: 'Nochmal' });
    host.documentId = null;
    expect(host.hasAttribute('document-id')).toBe(false);
    await waitFor(() => expect(host.shadowRoot!.querySelector('.signet-viewer')).toBeNull());
  });

  it('keeps its styles inside the shadow root: the page’s CSS does not reach in, the viewer’s does not leak out', async () => {
    const doc = await commands.createDocument();
    const pageSheet = new CSSStyleSheet();
    pageSheet.replaceSync('.signet-toolbar { background: rgb(255, 0, 0) !important; } .signet-button { display: none !important; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageSheet];
    try {
      const host = element(doc);
      const outside = document.createElement('div');
      outside.className = 'signet-viewer';
      const outsideToolbar = document.createElement('div');
      outsideToolbar.className = 'signet-toolbar';
      outside.append(outsideToolbar);
      document.body.append(host, outside);
      await untilReady(host);

      const toolbar = host.shadowRoot!.querySelector('.signet-toolbar')!;
      expect(getComputedStyle(toolbar).backgroundColor).toBe('rgb(255, 255, 255)');
      expect(getComputedStyle(toolbar).display).toBe('flex');
      expect(getComputedStyle(outsideToolbar).display).toBe('block');
      expect(getComputedStyle(outside).position).toBe('static');
      // The styles are a constructed sheet of the shadow root: no <style> element, no sheet of the document.
      expect(host.shadowRoot!.adoptedStyleSheets.length).toBeGreaterThan(0);
      expect(host.shadowRoot!.querySelector('style')).toBeNull();
      expect(document.querySelector('style[data-signet-viewer]')).toBeNull();
      expect(document.adoptedStyleSheets).toEqual([pageSheet]);
    } finally {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== pageSheet);
    }
  });

  it('fires field-change and complete events that cross the shadow boundary, with their detail', async () => {
    const doc = await commands.createDocument();
    const events = recordEvents();
    const host = element(doc);
    document.body.append(host);
    await untilReady(host);

    await userEvent.fill(inside(host).getByRole('textbox', { name: 'Full legal name' }), 'Ada Lovelace');
    await waitFor(() =>
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'signet:field-change', target: host, detail: { fieldId: 'signer_name', value: { type: 'text', content: 'Ada Lovelace' } } }),
      ),
    );
    await typeSignature(host, 'Initials', 'AL');
    await userEvent.click(inside(host).getByRole('checkbox', { name: /agree to the terms/ }));
    await typeSignature(host, 'Signature', 'Ada Lovelace');
    await userEvent.fill(inside(host).getByLabelText('Date'), '2026-11-22');
    await userEvent.click(inside(host).getByRole('button', { name: /finish and submit/i }));

    await inside(host).findByText('Document signed', {}, { timeout: 15_000 });
    const complete = events.filter((event) => event.type === 'signet:complete');
    expect(complete).toHaveLength(1);
    expect(complete[0]!.composed).toBe(true);
    expect((complete[0]!.detail as { result: { documentId: string } }).result.documentId).toBe(doc.documentId);
    expect(await commands.hasSubmission(doc.documentId)).toBe(true);
    expect(events.filter((event) => event.type === 'signet:error')).toEqual([]);
  });

  it('fires signet:decline with the result when the signer declines, across the shadow boundary', async () => {
    const doc = await commands.createDocument();
    const events = recordEvents();
    const host = element(doc);
    document.body.append(host);
    await untilReady(host);
    await userEvent.click(inside(host).getByRole('button', { name: 'Decline' }));
    await userEvent.fill(inside(host).getByRole('textbox', { name: 'Tell the sender why' }), 'Wrong amount.');
    await userEvent.click(inside(host).getByRole('button', { name: 'Decline to sign' }));
    await inside(host).findByText('This document was declined and can no longer be signed.', {}, { timeout: 15_000 });
    const declined = events.filter((event) => event.type === 'signet:decline');
    expect(declined).toHaveLength(1);
    expect(declined[0]).toMatchObject({ target: host, composed: true });
    expect((declined[0]!.detail as SignetEventMap['signet:decline']['detail']).result).toMatchObject({
      documentId: doc.documentId,
      status: 'declined',
      reason: 'Wrong amount.',
    });
    expect(await commands.hasSubmission(doc.documentId)).toBe(false);
  });

  it('fires signet:error with the error when the document cannot be loaded', async () => {
    const doc = await commands.createDocument();
    const events = recordEvents();
    const host = element(doc, { 'document-id': 'doc_doesnotexist000000000' });
    document.body.append(host);
    await waitFor(() => expect(events.map((event) => event.type)).toContain('signet:error'), { timeout: 15_000 });
    const error = events.find((event) => event.type === 'signet:error')!;
    expect(error.target).toBe(host);
    expect((error.detail as { error: Error }).error).toBeInstanceOf(Error);
  });

  it('fires signet:unavailable with the reason, and says so inside, when the document was voided', async () => {
    const doc = await commands.createDocument();
    await commands.endDocument(doc.documentId, 'void');
    const events = recordEvents();
    const host = element(doc);
    document.body.append(host);
    await waitFor(() => expect(events.map((event) => event.type)).toContain('signet:unavailable'), { timeout: 15_000 });
    const unavailable = events.find((event) => event.type === 'signet:unavailable')!;
    expect(unavailable).toMatchObject({ target: host, composed: true, detail: { reason: 'voided' } });
    expect(events.filter((event) => event.type === 'signet:error')).toEqual([]);
    await inside(host).findByText('This document was cancelled');
  });
});

describe('mount', () => {
  it('renders into the element’s shadow root, updates its props and unmounts', async () => {
    const doc = await commands.createDocument();
    const events = recordEvents();
    const target = document.createElement('div');
    target.style.height = '700px';
    document.body.append(target);
    const ready: string[] = [];
    const viewer = mount(target, { documentId: doc.documentId, apiKey: doc.apiKey, baseUrl: doc.baseUrl, onReady: (d) => ready.push(d.metadata.id) });
    await untilReady(target);
    expect(ready).toEqual([doc.documentId]);
    expect(events.filter((event) => event.type === 'signet:ready').map((event) => event.target)).toEqual([target]);

    viewer.update({ locale: 'de' });
    await waitFor(() => expect(target.shadowRoot!.querySelector('.signet-viewer')!.getAttribute('lang')).toBe('de'));

    viewer.unmount();
    expect(target.shadowRoot!.querySelector('.signet-viewer')).toBeNull();
    expect(target.shadowRoot!.childElementCount).toBe(0);
  });
});
