import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import type { UnavailableReason } from './error-message.js';
import { fillAll } from './test-support/fill-fields.js';
import { renderViewer, untilReady } from './test-support/render-viewer.js';

/*
 * A document that can no longer be signed (docs/lifecycle.md): voided or erased by the sender, or past its expiry.
 * The viewer says which in words, with no Try again, and tells the host through onUnavailable, not onError.
 */

afterEach(() => cleanup());

describe('a document that can no longer be signed', () => {
  const cases: Array<{ end: 'void' | 'erase' | 'expire'; reason: UnavailableReason; key: 'session' | 'organisation'; title: string; body: string }> = [
    // Voiding and erasing revoke the document's session keys: the refusal of the key says why.
    { end: 'void', reason: 'voided', key: 'session', title: 'This document was cancelled', body: 'The sender cancelled it, so it can no longer be signed.' },
    { end: 'erase', reason: 'erased', key: 'session', title: 'This document is no longer available', body: 'The sender has deleted it.' },
    { end: 'expire', reason: 'expired', key: 'session', title: 'This document has expired', body: 'It can no longer be signed. Please ask the sender for a new one.' },
    // An organisation's pk key is not revoked: the document's own answer says why.
    { end: 'void', reason: 'voided', key: 'organisation', title: 'This document was cancelled', body: 'The sender cancelled it, so it can no longer be signed.' },
    { end: 'erase', reason: 'erased', key: 'organisation', title: 'This document is no longer available', body: 'The sender has deleted it.' },
  ];

  it.each(cases)('on opening, $reason ($key key): says so, calls onUnavailable, not onError', async ({ end, reason, key, title, body }) => {
    const doc = await commands.createDocument({ pages: 1 });
    const apiKey = key === 'session' ? await commands.sessionKey(doc.documentId) : doc.apiKey;
    await commands.endDocument(doc.documentId, end);
    const unavailable: UnavailableReason[] = [];
    const { events } = await renderViewer({ document: { ...doc, apiKey }, props: { onUnavailable: (why) => unavailable.push(why) } });

    const panel = (await screen.findByText(title, undefined, { timeout: 15_000 })).closest('.signet-status')!;
    expect(panel.textContent).toContain(body);
    expect(panel.classList.contains('signet-status--info')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    await waitFor(() => expect(unavailable).toEqual([reason]));
    expect(events.errors).toEqual([]);
  });

  it('voided while the signer is signing: the submission is refused, the viewer says so and locks', async () => {
    const unavailable: UnavailableReason[] = [];
    const { doc, events } = await renderViewer({ pages: 1, props: { onUnavailable: (why) => unavailable.push(why) } });
    await untilReady();
    await fillAll();
    await commands.endDocument(doc.documentId, 'void');
    await userEvent.click(screen.getByRole('button', { name: /finish and submit/i }));

    await screen.findByText('This document was cancelled', undefined, { timeout: 15_000 });
    expect(screen.getByText('The sender cancelled it, so it can no longer be signed.')).toBeTruthy();
    expect(unavailable).toEqual(['voided']);
    expect(events.errors).toEqual([]);
    expect(events.completed).toEqual([]);
    expect(screen.queryByRole('button', { name: /finish and submit/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Decline' })).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Full legal name' }) as HTMLInputElement).readOnly).toBe(true);
  });
});
