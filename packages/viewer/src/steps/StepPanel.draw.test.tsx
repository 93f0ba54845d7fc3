import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { drawStroke, scribble } from '../signature/test-input.js';
import { enterText } from '../test-support/fill-fields.js';
import { onPage, panel, renderAt } from './test-viewer.js';

/*
 * The step panel's signature drawn with real mouse strokes (test-input.ts: the DevTools protocol in Chromium, WebDriver
 * actions in WebKit and Firefox).
 */

afterEach(() => cleanup());

describe('the step panel, drawing', { timeout: 60_000 }, () => {
  it('a signature is drawn in the panel, shown on the page, and every field filled there submits', async () => {
    const { doc } = await renderAt();
    await userEvent.click(screen.getByRole('button', { name: 'Next field' }));
    await userEvent.type(within(await panel()).getByRole('textbox', { name: 'Full legal name' }), 'Ada Lovelace');
    const next = async () => userEvent.click(within(await panel()).getByRole('button', { name: 'Next field' }));
    await next(); // Company: optional
    await next();
    // Initials: typed, prefilled from the name.
    await userEvent.click(within(await panel()).getByRole('button', { name: 'Type', pressed: false }));
    expect((within(await panel()).getByRole('textbox', { name: 'Your name' }) as HTMLInputElement).value).toBe('AL');
    await userEvent.click(within(await panel()).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(onPage('signer_initials').querySelector('canvas')).toBeTruthy());
    await next();
    await userEvent.click(within(await panel()).getByRole('checkbox'));
    expect(onPage<HTMLInputElement>('accept_terms').checked).toBe(true);
    await next();
    // Signature: drawn on the panel's pad; Apply puts it on the page's field.
    const region = await panel();
    expect(within(region).queryByRole('dialog')).toBeNull();
    const apply = within(region).getByRole<HTMLButtonElement>('button', { name: 'Apply' });
    expect(apply.disabled).toBe(true);
    // Again if the pad was still being fitted to its new size when the stroke began (a loaded machine), as a signer would.
    await vi.waitFor(
      async () => {
        await drawStroke(region.querySelector('.signet-sig-canvas')!, scribble(0.2, 0.8, 0.5));
        await waitFor(() => expect(apply.disabled).toBe(false), { timeout: 500 });
      },
      { timeout: 10_000 },
    );
    await userEvent.click(apply);
    await waitFor(() => expect(onPage('signature').querySelector('canvas')).toBeTruthy());
    expect(within(await panel()).getByRole('button', { name: 'Change' })).toBeTruthy();
    await next();
    await enterText(within(await panel()).getByLabelText('Date'), '2026-11-22');
    // The last step, every required field filled: Submit is here.
    await userEvent.click(within(await panel()).getByRole('button', { name: 'Finish and submit' }));
    await screen.findByText('Document signed', {}, { timeout: 10_000 });
    expect(screen.queryByRole('region', { name: /\d of \d/ })).toBeNull();
    const stored = (await commands.storedSubmission(doc.documentId)) as { fields: Array<{ id: string; value: { type: string; imageData?: string } }> };
    const signature = stored.fields.find((field) => field.id === 'signature')!.value;
    expect(signature.type).toBe('signature');
    expect(signature.imageData).toMatch(/^data:image\/png;base64,/);
    expect(stored.fields.find((field) => field.id === 'signer_name')!.value).toEqual({ type: 'text', content: 'Ada Lovelace' });
  });

});
