import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { typedDate } from './test-support/fill-fields.js';
import { renderViewer, untilReady } from './test-support/render-viewer.js';

afterEach(() => cleanup());

/** Tabs forward until the focused element is named `name` (at most 40 presses). */
async function tabTo(name: string) {
  for (let presses = 0; presses < 40; presses++) {
    const focused = document.activeElement;
    if (focused?.getAttribute('aria-label') === name || focused?.textContent === name) return focused as HTMLElement;
    await userEvent.tab();
  }
  throw new Error(`Tab never reached "${name}"`);
}

async function signByTyping(text: string) {
  await userEvent.keyboard('{Enter}');
  await screen.findByRole('dialog');
  await userEvent.keyboard('{ArrowRight}');
  expect(screen.getByRole('tab', { name: 'Type' }).getAttribute('aria-selected')).toBe('true');
  await userEvent.tab();
  expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Your name' }));
  await userEvent.keyboard('{Control>}a{/Control}');
  await userEvent.keyboard(text);
  await userEvent.keyboard('{Enter}');
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

it('completes and submits a document with the keyboard alone, fields in reading order', async () => {
  const { doc, events } = await renderViewer();
  await untilReady();
  await tabTo('Agreement number');
  const order: string[] = [];
  const record = () => order.push(document.activeElement?.getAttribute('aria-label') ?? '');

  await userEvent.tab();
  record();
  await userEvent.keyboard('Ada Lovelace');
  await userEvent.tab();
  record();
  await userEvent.tab();
  record();
  await signByTyping('AL');
  expect(document.activeElement?.getAttribute('aria-label')).toBe('Initials');
  await userEvent.tab();
  record();
  await userEvent.keyboard(' ');
  await userEvent.tab();
  record();
  await signByTyping('Ada Lovelace');
  await userEvent.tab();
  record();
  await userEvent.keyboard(typedDate('2026-11-22'));

  expect(order).toEqual([
    'Full legal name',
    'Company',
    'Initials',
    'I have read and agree to the terms of this Agreement',
    'Signature',
    'Date',
  ]);
  expect(screen.getByText('All required fields are complete')).toBeTruthy();
  await tabTo('Finish and submit');
  await userEvent.keyboard('{Enter}');
  await screen.findByText('Document signed', {}, { timeout: 10_000 });
  expect(events.completed).toHaveLength(1);
  const stored = (await commands.storedSubmission(doc.documentId)) as { fields: Array<{ id: string; value: unknown }> };
  expect(stored.fields.find((field) => field.id === 'signed_date')?.value).toEqual({ type: 'date', content: '2026-11-22' });
});
