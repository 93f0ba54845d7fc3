import { buildSubmission, createSigningClient } from '@signet/api';
import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { server, userEvent } from 'vitest/browser';
import type { CreatedDocument } from './commands.js';
import { inkPng } from './render-viewer.js';

/**
 * Puts `value` in a text box in place of what it held, as typing does. Not `userEvent.fill` for text: in Firefox
 * (Playwright over WebDriver BiDi) fill sets the value without an input event that React sees, so `onChange` never
 * runs. A date input keeps fill, which reaches React in every engine: Playwright sets the ISO value as the browser's
 * picker does; WebKit's driver types keys into WebKitGTK's segments, so it gets the date as they read it.
 */
export async function enterText(element: Element, value: string): Promise<void> {
  if (element instanceof HTMLInputElement && element.type === 'date') {
    return againIfMoved(() => userEvent.fill(element, server.provider === 'webdriverio' && value ? typedDate(value) : value));
  }
  await againIfMoved(() => userEvent.clear(element));
  if (value) await againIfMoved(() => userEvent.type(element, value));
}

/**
 * `action` again (twice at most, 100 ms apart) when WebKit's driver did not find its element: that driver names an
 * element by its CSS path, computed when the action is sent, and a page that mounts beside it in between (the
 * pages render as they come into view) moves the path. The next attempt computes it afresh.
 */
async function againIfMoved<T>(action: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      if (attempt === 3 || server.provider !== 'webdriverio' || !/wasn't found/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * An ISO 8601 date as it is typed into a date input's segments in the browsers' en-US order (the suites' browsers
 * all run in en-US, WebKitGTK's "C" locale included): month, day, year, each separator moving to the next segment,
 * which WebKitGTK does not do by itself once a segment is full.
 * @example typedDate('2026-11-22') // '11/22/2026'
 */
export function typedDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${month}/${day}/${year}`;
}

/** Signs through the dialog's Type tab: click the field, type, apply. */
export async function typeSignature(fieldName: string, text: string): Promise<void> {
  await userEvent.click(screen.getByRole('button', { name: fieldName }));
  // The dialog's code loads on the first open: more than findBy's second in a slower engine (WebKit on Xvfb).
  const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
  await userEvent.click(within(dialog).getByRole('tab', { name: 'Type' }));
  const input = within(dialog).getByRole('textbox', { name: 'Your name' });
  await userEvent.clear(input);
  await userEvent.type(input, text);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

/** Fills every required field of the sample agreement with the mouse and keyboard. */
export async function fillAll(): Promise<void> {
  await enterText(screen.getByRole('textbox', { name: 'Full legal name' }), 'Ada Lovelace');
  await typeSignature('Initials', 'AL');
  await userEvent.click(screen.getByRole('checkbox', { name: /agree to the terms/ }));
  await typeSignature('Signature', 'Ada Lovelace');
  await enterText(screen.getByLabelText('Date'), '2026-11-22');
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
