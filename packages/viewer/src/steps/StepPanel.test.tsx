import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { enterText } from '../test-support/fill-fields.js';
import { onPage, panel, renderAt } from './test-viewer.js';

/*
 * On a narrow viewer (a phone), a field tapped or reached with Next is filled in a step panel at
 * the bottom of the viewer, bound to the same values as the page; a wide viewer keeps the fields on the page.
 */

afterEach(() => cleanup());

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

  it('a viewer 560 px wide, used with a mouse, keeps the fields on the page and the signature dialog', async () => {
    await renderAt(560);
    await userEvent.click(onPage('signer_name'));
    await userEvent.click(screen.getByRole('button', { name: 'Signature' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(screen.queryByRole('region', { name: /\d of \d/ })).toBeNull();
  });
});
