import { createSdkClient } from '@signet/api';
import type { DeclineResult } from '@signet/contract';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { enterText } from './test-support/fill-fields.js';
import { renderViewer, untilReady } from './test-support/render-viewer.js';

/* Declining: the signer says no, with a reason; the viewer shows the declined state, then and later. */

afterEach(() => cleanup());

describe('declining', () => {
  it('asks for a reason, declines, calls onDecline, and locks the document', async () => {
    const declines: DeclineResult[] = [];
    const { doc } = await renderViewer({ pages: 1, props: { onDecline: (result) => declines.push(result) } });
    await untilReady();
    await userEvent.click(screen.getByRole('button', { name: 'Decline' }));
    const reason = screen.getByRole('textbox', { name: 'Tell the sender why' });
    expect(document.activeElement).toBe(reason);
    const confirm = screen.getByRole('button', { name: 'Decline to sign' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    // Cancel goes back to signing.
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('textbox', { name: 'Tell the sender why' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Decline' }));
    await enterText(screen.getByRole('textbox', { name: 'Tell the sender why' }), 'The rent is not what we agreed.');
    await userEvent.click(screen.getByRole('button', { name: 'Decline to sign' }));
    await screen.findByText('This document was declined and can no longer be signed.');
    // Said once: the panel appears in the viewer's live region, there from the start; the panel is not one itself.
    const panel = screen.getByText('This document was declined and can no longer be signed.').closest('.signet-status')!;
    expect(panel.getAttribute('role')).toBeNull();
    expect(panel.parentElement!.matches('.signet-announcer[role="status"][aria-live="polite"]')).toBe(true);
    expect(declines).toEqual([expect.objectContaining({ documentId: doc.documentId, status: 'declined', reason: 'The rent is not what we agreed.' })]);
    expect(screen.queryByRole('button', { name: /finish and submit/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Decline' })).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Full legal name' }) as HTMLInputElement).readOnly).toBe(true);
    const stored = await createSdkClient({ apiKey: doc.apiKey, baseUrl: doc.baseUrl }).getDocument(doc.documentId);
    expect(stored.metadata.status).toBe('declined');
  });

  it('opens a declined document in its declined state', async () => {
    const doc = await commands.createDocument({ pages: 1 });
    await createSdkClient({ apiKey: doc.apiKey, baseUrl: doc.baseUrl }).declineDocument(doc.documentId, 'Wrong tenant');
    await renderViewer({ document: doc });
    await screen.findByText('Declined');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Full legal name' })).toBeTruthy());
    expect(screen.queryByRole('button', { name: /finish and submit/i })).toBeNull();
  });
});
