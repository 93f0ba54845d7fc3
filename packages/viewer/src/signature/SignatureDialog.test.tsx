import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { HANDWRITING_FONT_FAMILY } from './handwriting-font.js';
import { labels, removeCheckVisibility, renderDialog } from './test-fixtures.js';
import { decodePng, inkPixels } from './test-input.js';

afterEach(cleanup);

test('is a modal dialog named by its title once, described by the field, focused on the selected tab', () => {
  const { dialog } = renderDialog({ fieldLabel: 'Signature of the customer' });
  expect(dialog.open).toBe(true);
  expect(dialog.matches(':modal')).toBe(true);
  expect(dialog.getAttribute('aria-modal')).toBe('true');
  // Named once: "Add your signature", not "Add your signature Signature of the customer".
  expect(screen.getByRole('dialog', { name: 'Add your signature' })).toBe(dialog);
  expect(screen.getByRole('dialog', { description: 'Signature of the customer' })).toBe(dialog);
  expect(dialog.closest('.signet-viewer')).not.toBeNull();

  const tabs = screen.getAllByRole('tab');
  expect(tabs.map((tab) => tab.textContent)).toEqual(['Draw', 'Type', 'Upload']);
  expect(document.activeElement).toBe(tabs[0]);
  expect(tabs.map((tab) => tab.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false']);
  const panel = screen.getByRole('tabpanel');
  expect(tabs[0]!.getAttribute('aria-controls')).toBe(panel.id);
  expect(panel.getAttribute('aria-labelledby')).toBe(tabs[0]!.id);
});

test('arrow keys, Home and End move between tabs and show their panels', async () => {
  renderDialog();
  const [draw, type, upload] = screen.getAllByRole('tab');
  await userEvent.keyboard('{ArrowRight}');
  expect(document.activeElement).toBe(type);
  expect(type!.getAttribute('aria-selected')).toBe('true');
  expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(type!.id);
  await userEvent.keyboard('{ArrowRight}{ArrowRight}');
  expect(document.activeElement).toBe(draw);
  await userEvent.keyboard('{ArrowLeft}');
  expect(document.activeElement).toBe(upload);
  await userEvent.keyboard('{Home}');
  expect(document.activeElement).toBe(draw);
  await userEvent.keyboard('{End}');
  expect(document.activeElement).toBe(upload);
  expect(screen.getAllByRole('tabpanel')).toHaveLength(1);
});

test('a typed signature can be applied with the keyboard alone, as a PNG in the handwriting font', async () => {
  const { onApply } = renderDialog();
  await userEvent.keyboard('{ArrowRight}');
  await userEvent.tab();
  expect(document.activeElement).toBe(screen.getByRole('textbox', { name: labels.typeLabel }));
  await userEvent.keyboard('Ada Lovelace');
  await userEvent.keyboard('{Enter}');

  await vi.waitFor(() => expect(onApply).toHaveBeenCalledOnce());
  const png = await decodePng(onApply.mock.calls[0]![0]);
  expect(inkPixels(png)).toBeGreaterThan(500);
  expect(png.width).toBeGreaterThan(png.height * 2);
  // The PNG was drawn once the font had loaded: Caveat's Latin subset is loaded.
  const caveat = [...document.fonts].filter((face) => face.family.replaceAll('"', '') === HANDWRITING_FONT_FAMILY);
  expect(caveat.some((face) => face.status === 'loaded')).toBe(true);
});

test('the Type tab starts from initialName, and Apply stays disabled while it is blank', async () => {
  const { onApply } = renderDialog({ kind: 'initials', initialName: 'AL' });
  await userEvent.click(screen.getByRole('tab', { name: labels.type }));
  const input = screen.getByRole<HTMLInputElement>('textbox', { name: labels.typeLabel });
  expect(input.value).toBe('AL');
  const apply = screen.getByRole<HTMLButtonElement>('button', { name: labels.apply });
  expect(apply.disabled).toBe(false);
  // Typed over the whole name (WebDriver's element clear, userEvent.clear in WebKit, also takes the focus away).
  await userEvent.click(input);
  input.select();
  await userEvent.keyboard('   ');
  await vi.waitFor(() => expect(apply.disabled).toBe(true));
  await userEvent.keyboard('{Enter}');
  expect(onApply).not.toHaveBeenCalled();
});

test('Escape asks the caller to cancel, once', async () => {
  const { dialog, onCancel, onApply } = renderDialog();
  await userEvent.keyboard('{Escape}');
  expect(onCancel).toHaveBeenCalledOnce();
  expect(onApply).not.toHaveBeenCalled();
  // The caller decides: until it closes the dialog, the dialog stays open.
  expect(dialog.open).toBe(true);
});

test('Cancel asks the caller to cancel', async () => {
  const { onCancel } = renderDialog();
  await userEvent.click(screen.getByRole('button', { name: labels.cancel }));
  expect(onCancel).toHaveBeenCalledOnce();
});

describe.each([
  ['in Chromium as it is', false],
  ['without Element.checkVisibility (Safari before 17.4)', true],
])('the focus trap, %s', (_, withoutCheckVisibility) => {
  beforeEach(() => (withoutCheckVisibility ? removeCheckVisibility() : undefined));

  test('Tab and Shift+Tab go round the controls of the selected panel, past its ends, skipping a disabled Apply', async () => {
    const { dialog } = renderDialog();
    const stops = {
      draw: screen.getByRole('tab', { name: labels.draw }),
      type: screen.getByRole('tab', { name: labels.type }),
      undo: screen.getByRole('button', { name: labels.undo }),
      clear: screen.getByRole('button', { name: labels.clear }),
      // In the Type panel, hidden until that tab is selected.
      input: screen.getByRole('textbox', { name: labels.typeLabel, hidden: true }),
      cancel: screen.getByRole('button', { name: labels.cancel }),
      apply: screen.getByRole('button', { name: labels.apply }),
    };
    /** Which of the stops each of `presses` presses of Tab (or Shift+Tab) focuses. */
    const tabs = async (presses: number, shift = false) => {
      const seen: string[] = [];
      for (let i = 0; i < presses; i++) {
        await userEvent.tab({ shift });
        const focused = document.activeElement;
        const stop = Object.entries(stops).find(([, element]) => element === focused)?.[0];
        seen.push(stop ?? (dialog.contains(focused) ? 'elsewhere in the dialog' : 'outside the dialog'));
      }
      return seen;
    };

    // The Draw panel: the Type and Upload panels are hidden, Apply is disabled while the pad is empty.
    expect(document.activeElement).toBe(stops.draw);
    expect(await tabs(4)).toEqual(['undo', 'clear', 'cancel', 'draw']);
    expect(await tabs(4, true)).toEqual(['cancel', 'clear', 'undo', 'draw']);

    // The Type panel, blank: its input, then Cancel, and round.
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(stops.type);
    expect(await tabs(3)).toEqual(['input', 'cancel', 'type']);
    expect(await tabs(1, true)).toEqual(['cancel']);

    // With a name typed, Apply is enabled and is the last stop.
    await userEvent.click(stops.input);
    await userEvent.keyboard('Ada');
    expect(await tabs(3)).toEqual(['cancel', 'apply', 'type']);
    expect(await tabs(1, true)).toEqual(['apply']);
  });
});

test('closing unmounts it; opening again starts afresh', async () => {
  const view = renderDialog();
  // Something to forget: the Type tab is selected when the dialog closes.
  await userEvent.click(screen.getByRole('tab', { name: labels.type }));
  view.update({ open: false });
  expect(document.querySelector('dialog')).toBeNull();
  view.update({ open: true });
  expect(document.querySelector('dialog')?.open).toBe(true);
  expect(screen.getByRole('tab', { name: labels.draw }).getAttribute('aria-selected')).toBe('true');
});
