import { buildSubmission, createSigningClient } from '@signet/api';
import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { CreatedDocument } from './commands.js';
import { inkPng } from './render-viewer.js';

/** Signs through the dialog's Type tab: click the field, type, apply. */
export async function typeSignature(fieldName: string, text: string): Promise<void> {
  await userEvent.click(screen.getByRole('button', { name: fieldName }));
  const dialog = await screen.findByRole('dialog');
  await userEvent.click(within(dialog).getByRole('tab', { name: 'Type' }));
  const input = within(dialog).getByRole('textbox', { name: 'Your name' });
  await userEvent.clear(input);
  await userEvent.type(input, text);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

/** Fills every required field of the sample agreement with the mouse and keyboard. */
export async function fillAll(): Promise<void> {
  await userEvent.fill(screen.getByRole('textbox', { name: 'Full legal name' }), 'Ada Lovelace');
  await typeSignature('Initials', 'AL');
  await userEvent.click(screen.getByRole('checkbox', { name: /agree to the terms/ }));
  await typeSignature('Signature', 'Ada Lovelace');
  await userEvent.fill(screen.getByLabelText('Date'), '2026-11-22');
}

/** Completes `doc` through the API, as a signer on another device would have: every required field filled. */
export async function completeThroughApi(doc: CreatedDocument): Promise<void> {
  const client = createSigningClient({ apiKey: doc.apiKey, baseUrl: doc.baseUrl });
  const sdk = await client.getDocument(doc.documentId);
  const image = inkPng();
  await client.submitDocument(
    await buildSubmission({
      document: sdk,
      values: {
        signer_name: { type: 'text', content: 'Grace Hopper' },
        signer_initials: { type: 'initials', imageData: image },
        accept_terms: { type: 'checkbox', checked: true },
        signature: { type: 'signature', imageData: image },
        signed_date: { type: 'date', content: '2026-11-20' },
      },
      renderContext: { scale: 1, viewportWidth: 800, viewportHeight: 600, devicePixelRatio: 1 },
      pages: Array.from({ length: doc.pageCount }, (_, index) => ({ pageNumber: index + 1, width: 612, height: 792, rotation: 0 })),
    }),
  );
}
