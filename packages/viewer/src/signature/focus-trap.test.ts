import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { userEvent } from 'vitest/browser';
import { trapTab } from './focus-trap.js';
import { removeCheckVisibility } from './test-fixtures.js';

// Before its first and after its last reachable element, the dialog holds one element of each kind that Tab skips:
// were the trap to count any of them as an end, Tab or Shift+Tab at that end would leave the dialog.
const UNREACHABLE = `
  <button hidden>hidden</button>
  <button disabled>disabled</button>
  <button tabindex="-1">out of the tab order</button>
  <button style="visibility: hidden">invisible</button>
  <div style="display: none"><button>not displayed</button></div>
  <div hidden><input aria-label="in a hidden panel" /></div>
  <div inert><button>inert</button></div>
  <fieldset disabled><input aria-label="in a disabled fieldset" /></fieldset>
  <a>a link without href</a>
`;

/** A modal dialog with the trap on its keydown, as the signature dialog has it, between two page buttons. */
async function openDialog(content: string): Promise<HTMLDialogElement> {
  document.body.innerHTML = `<button>page before</button><dialog></dialog><button>page after</button>`;
  const dialog = document.querySelector('dialog')!;
  dialog.innerHTML = content;
  dialog.addEventListener('keydown', (event) => trapTab(event, dialog));
  dialog.showModal();
  // The tests run in a frame, and a Tab that left it (a failure) would leave the keys of the next test to the page
  // around it: a click brings them back.
  await userEvent.click(dialog);
  return dialog;
}

function byLabel(dialog: HTMLElement, label: string): HTMLElement {
  const element = [...dialog.querySelectorAll<HTMLElement>('button, input')].find(
    (candidate) => candidate.textContent === label || candidate.getAttribute('aria-label') === label,
  );
  if (!element) throw new Error(`No "${label}" in the dialog`);
  return element;
}

/** The labels of the elements focused by `presses` presses of Tab (or Shift+Tab). */
async function tabs(presses: number, shift = false): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < presses; i++) {
    await userEvent.tab({ shift });
    const focused = document.activeElement;
    seen.push(focused?.getAttribute('aria-label') ?? focused?.textContent ?? '');
  }
  return seen;
}

afterEach(() => {
  document.querySelector('dialog')?.close();
  document.body.innerHTML = '';
});

describe.each([
  ['in Chromium as it is', false],
  ['without Element.checkVisibility (Safari before 17.4)', true],
])('%s', (_, withoutCheckVisibility) => {
  beforeEach(() => {
    if (!withoutCheckVisibility) return;
    const restore = removeCheckVisibility();
    expect('checkVisibility' in document.body).toBe(false);
    return restore;
  });

  test('Tab from the last reachable element goes to the first', async () => {
    const dialog = await openDialog(`${UNREACHABLE}<button>first</button><input aria-label="last" />${UNREACHABLE}`);
    byLabel(dialog, 'last').focus();
    expect(await tabs(1)).toEqual(['first']);
  });

  test('Shift+Tab from the first reachable element goes to the last', async () => {
    const dialog = await openDialog(`${UNREACHABLE}<button>first</button><input aria-label="last" />${UNREACHABLE}`);
    byLabel(dialog, 'first').focus();
    expect(await tabs(1, true)).toEqual(['last']);
  });

  test('Tab and Shift+Tab go round the reachable elements only, in both directions', async () => {
    const dialog = await openDialog(
      `${UNREACHABLE}<button>first</button>${UNREACHABLE}<input aria-label="middle" />${UNREACHABLE}<button>last</button>${UNREACHABLE}`,
    );
    byLabel(dialog, 'first').focus();
    expect(await tabs(6)).toEqual(['middle', 'last', 'first', 'middle', 'last', 'first']);
    expect(await tabs(6, true)).toEqual(['last', 'middle', 'first', 'last', 'middle', 'first']);
  });

  test('an element that becomes disabled or hidden is no longer an end', async () => {
    const dialog = await openDialog(`<button>a</button><button>b</button><button>c</button><button>d</button>`);
    (byLabel(dialog, 'd') as HTMLButtonElement).disabled = true;
    byLabel(dialog, 'c').focus();
    expect(await tabs(1)).toEqual(['a']);
    byLabel(dialog, 'a').hidden = true;
    byLabel(dialog, 'b').focus();
    expect(await tabs(1, true)).toEqual(['c']);
  });

  test('with nothing reachable, the focus stays on the dialog', async () => {
    const dialog = await openDialog(UNREACHABLE);
    dialog.focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(dialog);
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(dialog);
  });
});

test('Element.checkVisibility is back after the tests without it', () => {
  expect(typeof document.body.checkVisibility).toBe('function');
});
