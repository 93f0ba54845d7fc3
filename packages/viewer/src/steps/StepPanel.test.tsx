import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { drawStroke, drawsThroughCdp, scribble } from '../signature/test-input.js';
import { SigningViewer } from '../SigningViewer.js';
import { enterText } from '../test-support/fill-fields.js';
import { untilReady } from '../test-support/render-viewer.js';

/*
 * Issue 19, item 6: on a narrow viewer (a phone), a field tapped or reached with Next is filled in a step panel at
 * the bottom of the viewer, bound to the same values as the page; a wide viewer keeps the fields on the page.
 */

afterEach(() => cleanup());

/** A fresh sample agreement (2 pages) in a viewer `width` CSS px wide, as on a phone by default. */
async function renderAt(width = 390) {
  const doc = await commands.createDocument({ pages: 2 });
  const changes: string[] = [];
  render(
    <div style={{ height: '700px', width: `${width}px` }}>
      <SigningViewer
        documentId={doc.documentId}
        apiKey={doc.apiKey}
        baseUrl={doc.baseUrl}
        retry={{ baseDelayMs: 5, maxDelayMs: 20 }}
        onFieldChange={(id) => changes.push(id)}
      />
    </div>,
  );
  await untilReady();
  return { doc, changes };
}

/** The field's control on the page (the panel has its own, of the same name). */
const onPage = <T extends HTMLElement>(fieldId: string) => document.querySelector<T>(`.signet-pages [data-signet-field="${fieldId}"]`)!;
const panel = () => screen.findByRole('region', { name: /\d of \d/ });
const heading = async () => within(await panel()).getByRole('heading').textContent;

describe('the step panel', { timeout: 60_000 }, () => {
  it('opens at a tapped field; Previous and Next go through the signer’s fields in reading order, n of m', async () => {
    await renderAt();
    expect(screen.queryByRole('region', { name: /\d of \d/ })).toBeNull();
    await userEvent.click(onPage('signer_company'));
    const region = await panel();
    expect(within(region).getByText('2 of 6')).toBeTruthy();
    expect(await heading()).toBe('Company');
    // Its control has the focus, and the live region says where the signer is.
    expect(document.activeElement).toBe(within(region).getByRole('textbox', { name: 'Company' }));
    expect(document.querySelector('.signet-announcer')!.textContent).toContain('2 of 6: Company');

    const order: string[] = [];
    for (let step = 0; step < 4; step++) {
      await userEvent.click(within(await panel()).getByRole('button', { name: 'Next field' }));
      order.push((await heading())!);
    }
    expect(order).toEqual(['Initials', 'I have read and agree to the terms of this Agreement', 'Signature', 'Date']);
    expect(within(await panel()).getByText('6 of 6')).toBeTruthy();
    await userEvent.click(within(await panel()).getByRole('button', { name: 'Previous' }));
    expect(await heading()).toBe('Signature');
    await userEvent.click(within(await panel()).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /\d of \d/ })).toBeNull());
    // Back on the page, at the field, with the guidance bar.
    expect(document.activeElement).toBe(onPage('signature'));
    expect(screen.getByRole('button', { name: 'Next field' })).toBeTruthy();
  });

  it('the guidance bar’s Next opens the panel at the next required field, kept in view above the panel', async () => {
    await renderAt();
    await userEvent.click(screen.getByRole('button', { name: 'Next field' }));
    expect(await heading()).toBe('Full legal name');
    expect(within(await panel()).getByText('1 of 6')).toBeTruthy();
    // The page's field on page 2 is scrolled to, above the panel.
    for (let step = 0; step < 5; step++) await userEvent.click(within(await panel()).getByRole('button', { name: 'Next field' }));
    expect(await heading()).toBe('Date');
    const date = onPage('signed_date');
    const scroller = date.closest('.signet-pages')!;
    await waitFor(() => {
      const field = date.getBoundingClientRect();
      const view = scroller.getBoundingClientRect();
      expect(field.top).toBeGreaterThanOrEqual(view.top);
      expect(field.bottom).toBeLessThanOrEqual(view.bottom);
    });
    const sheet = (await panel()).getBoundingClientRect();
    expect(date.getBoundingClientRect().bottom).toBeLessThanOrEqual(sheet.top);
  });

  it('a value typed in the panel is on the page, and one typed on the page is in the panel', async () => {
    const { changes } = await renderAt();
    await userEvent.click(onPage('signer_name'));
    const input = within(await panel()).getByRole('textbox', { name: 'Full legal name' });
    expect(getComputedStyle(input).fontSize).toBe('16px');
    expect(input.getBoundingClientRect().height).toBeGreaterThanOrEqual(44);
    await userEvent.type(input, 'Ada');
    expect(onPage<HTMLInputElement>('signer_name').value).toBe('Ada');
    expect(changes).toContain('signer_name');
    await enterText(onPage('signer_name'), 'Ada Lovelace');
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('Ada Lovelace'));
  });

  it.runIf(drawsThroughCdp)('a signature is drawn in the panel, shown on the page, and every field filled there submits', async () => {
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
    await userEvent.fill(within(await panel()).getByLabelText('Date'), '2026-11-22');
    // The last step, every required field filled: Submit is here.
    await userEvent.click(within(await panel()).getByRole('button', { name: 'Finish and submit' }));
    await screen.findByText('Document signed');
    expect(screen.queryByRole('region', { name: /\d of \d/ })).toBeNull();
    const stored = (await commands.storedSubmission(doc.documentId)) as { fields: Array<{ id: string; value: { type: string; imageData?: string } }> };
    const signature = stored.fields.find((field) => field.id === 'signature')!.value;
    expect(signature.type).toBe('signature');
    expect(signature.imageData).toMatch(/^data:image\/png;base64,/);
    expect(stored.fields.find((field) => field.id === 'signer_name')!.value).toEqual({ type: 'text', content: 'Ada Lovelace' });
  });

  it('a viewer 560 px wide, used with a mouse, keeps the fields on the page and the signature dialog', async () => {
    await renderAt(560);
    await userEvent.click(onPage('signer_name'));
    await userEvent.click(screen.getByRole('button', { name: 'Signature' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(screen.queryByRole('region', { name: /\d of \d/ })).toBeNull();
  });
});
