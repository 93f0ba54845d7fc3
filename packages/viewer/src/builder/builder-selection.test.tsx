import type { FieldDefinition } from '@signet/contract';
import { cleanup, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { clickWith, drawStroke, inputGap } from '../signature/test-input.js';
import { PAGE, fieldBox, fieldButton, pageBox, renderBuilder, stored, textField } from '../test-support/render-builder.js';

/*
 * Several fields at once, copy and paste, duplicating onto every page, and touch (docs/decisions.md, "Builder:
 * several fields, copy and paste, touch"), against the real server: what it stores after each action and each undo.
 */

afterEach(cleanup);

const pressed = () => [...document.querySelectorAll<HTMLElement>('[data-field-id]')].filter((box) => box.querySelector('button')!.getAttribute('aria-pressed') === 'true').map((box) => box.dataset.fieldId);
const byId = (fields: FieldDefinition[], id: string) => fields.find((field) => field.id === id)!;
const status = () => [...document.querySelectorAll('.signet-visually-hidden[role="status"]')].map((element) => element.textContent).join(' ');

it('moves fields selected with Shift+click and Ctrl+click together, by a drag and by arrow keys, one undo step each', async () => {
  const fields = [textField({ id: 'a', label: 'A' }), textField({ id: 'b', label: 'B', y: 0.5 }), textField({ id: 'c', label: 'C', y: 0.7 })];
  const { draft } = await renderBuilder({ draft: await commands.createDraft({ pages: 1, fields }), props: { snap: false } });
  await userEvent.click(fieldButton('a'));
  await clickWith(fieldButton('b'), 'Shift');
  expect(pressed()).toEqual(['a', 'b']);
  await clickWith(fieldButton('c'), 'Control');
  await clickWith(fieldButton('c'), 'Control');
  expect(pressed()).toEqual(['a', 'b']);
  expect(screen.getByText('2 fields selected')).toBeTruthy();
  // No resize handles on several fields.
  expect(document.querySelector('[data-handle]')).toBeNull();

  await commands.takeRequests(draft.documentId);
  const page1 = pageBox().getBoundingClientRect();
  const rect = fieldBox('a')!.getBoundingClientRect();
  await drawStroke(fieldBox('a')!, [[0.5, 0.5], [0.5 + 10 / rect.width, 0.5], [0.5 + 50 / rect.width, 0.5 + 30 / rect.height]], 'mouse');
  const moved = await stored(draft.documentId, (list) => byId(list, 'b').x !== 0.2);
  for (const [id, y] of [['a', 0.2], ['b', 0.5]] as const) {
    expect(Math.abs(byId(moved, id).x - 0.2 - 50 / page1.width)).toBeLessThan(1 / page1.width);
    expect(Math.abs(byId(moved, id).y - y - 30 / page1.height)).toBeLessThan(1 / page1.height);
  }
  expect(byId(moved, 'b').x).toBeCloseTo(byId(moved, 'a').x, 6);
  expect(byId(moved, 'c')).toMatchObject({ x: 0.2, y: 0.7 });
  // The selection stays, and the drag was one save.
  expect(pressed()).toEqual(['a', 'b']);
  expect((await commands.takeRequests(draft.documentId)).filter((request) => request.method === 'PUT')).toHaveLength(1);

  await userEvent.keyboard('{Shift>}{ArrowRight}{/Shift}');
  const stepped = await stored(draft.documentId, (list) => byId(list, 'a').x !== byId(moved, 'a').x);
  expect(byId(stepped, 'a').x).toBeCloseTo(byId(moved, 'a').x + 10 / PAGE.width, 5);
  expect(byId(stepped, 'b').x).toBeCloseTo(byId(moved, 'b').x + 10 / PAGE.width, 5);

  await userEvent.keyboard('{Control>}z{/Control}');
  await stored(draft.documentId, (list) => byId(list, 'a').x === byId(moved, 'a').x && byId(list, 'b').x === byId(moved, 'b').x);
  await userEvent.keyboard('{Control>}z{/Control}');
  const undone = await stored(draft.documentId, (list) => byId(list, 'a').x === 0.2);
  expect(undone.map(({ id, x, y }) => [id, x, y])).toEqual([['a', 0.2, 0.2], ['b', 0.2, 0.5], ['c', 0.2, 0.7]]);

  // A click without a modifier selects that field alone; Escape selects none.
  await userEvent.click(fieldButton('b'));
  expect(pressed()).toEqual(['b']);
  await userEvent.keyboard('{Escape}');
  expect(pressed()).toEqual([]);
});

it('selects every field of the current page with Ctrl+A, deletes them with Delete and brings them back with one undo', async () => {
  const fields = [textField({ id: 'a', label: 'A' }), textField({ id: 'b', label: 'B', y: 0.5 }), textField({ id: 'other', label: 'Other', page: 2 })];
  const { draft } = await renderBuilder({ draft: await commands.createDraft({ pages: 2, fields }) });
  await userEvent.click(fieldButton('a'));
  await userEvent.keyboard('{Control>}a{/Control}');
  expect(pressed()).toEqual(['a', 'b']);
  // Shift+Enter on the focused field takes it out of the selection and puts it back.
  await userEvent.keyboard('{Shift>}{Enter}{/Shift}');
  expect(pressed()).toEqual(['b']);
  await userEvent.keyboard('{Shift>}{Enter}{/Shift}');
  expect(pressed()).toEqual(['a', 'b']);
  await userEvent.keyboard('{Delete}');
  await waitFor(() => expect(status()).toContain('Fields deleted: 2'));
  const left = await stored(draft.documentId, (list) => list.length === 1);
  expect(left[0]!.id).toBe('other');
  await userEvent.keyboard('{Control>}z{/Control}');
  const back = await stored(draft.documentId, (list) => list.length === 3);
  expect(back.map((field) => field.id)).toEqual(['a', 'b', 'other']);
});

it('copies and pastes onto the current page 10 pt further, with new ids, and duplicates with Ctrl+D', async () => {
  const { draft } = await renderBuilder({ draft: await commands.createDraft({ pages: 2, fields: [textField({ signerId: undefined })] }) });
  await userEvent.click(fieldButton('name'));
  await userEvent.keyboard('{Control>}c{/Control}');
  await userEvent.keyboard('{Control>}v{/Control}');
  const pasted = await stored(draft.documentId, (list) => list.length === 2);
  expect(byId(pasted, 'text-1')).toMatchObject({ page: 1, label: 'Full name', required: true, width: 0.3, height: 0.03 });
  expect(byId(pasted, 'text-1').x).toBeCloseTo(0.2 + 10 / PAGE.width, 5);
  expect(byId(pasted, 'text-1').y).toBeCloseTo(0.2 + 10 / PAGE.height, 5);
  expect(pressed()).toEqual(['text-1']);
  await waitFor(() => expect(document.activeElement).toBe(fieldButton('text-1')));

  await userEvent.keyboard('{Control>}d{/Control}');
  const duplicated = await stored(draft.documentId, (list) => list.length === 3);
  expect(byId(duplicated, 'text-2').x).toBeCloseTo(0.2 + 20 / PAGE.width, 5);
  expect(pressed()).toEqual(['text-2']);

  // Page 2 in view: Paste (the panel's button) puts the copy there, 10 pt on from the last paste.
  pageBox(2).scrollIntoView();
  const scroller = document.querySelector('.signet-pages')!.getBoundingClientRect();
  const shown = (n: number) => Math.max(0, Math.min(pageBox(n).getBoundingClientRect().bottom, scroller.bottom) - Math.max(pageBox(n).getBoundingClientRect().top, scroller.top));
  await waitFor(() => expect(shown(2)).toBeGreaterThan(shown(1)));
  const paste = screen.getByRole('button', { name: 'Paste' });
  expect(paste.getAttribute('aria-keyshortcuts')).toBe('Control+V Meta+V');
  await userEvent.click(paste);
  const onPage2 = await stored(draft.documentId, (list) => list.length === 4);
  expect(byId(onPage2, 'text-3')).toMatchObject({ page: 2 });
  expect(byId(onPage2, 'text-3').x).toBeCloseTo(0.2 + 20 / PAGE.width, 5);

  for (let n = 3; n >= 1; n -= 1) {
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await stored(draft.documentId, (list) => list.length === n);
  }
});

it('duplicates the selected field onto every other page at the same place, one undo step', async () => {
  const initials = textField({ id: 'init', type: 'initials', label: 'Initials', x: 0.8, y: 0.9, width: 0.1, height: 0.04 });
  const { draft } = await renderBuilder({ draft: await commands.createDraft({ pages: 3, fields: [initials] }) });
  await userEvent.click(fieldButton('init'));
  const button = screen.getByRole('button', { name: 'Duplicate onto every page' });
  expect(button.getAttribute('aria-keyshortcuts')).toBe('Control+Shift+D Meta+Shift+D');
  await userEvent.click(button);
  const all = await stored(draft.documentId, (list) => list.length === 3);
  expect(all.map((field) => [field.id, field.page])).toEqual([['init', 1], ['initials-1', 2], ['initials-2', 3]]);
  for (const copy of all) expect(copy).toMatchObject({ type: 'initials', label: 'Initials', x: 0.8, y: 0.9, width: 0.1, height: 0.04 });
  // Again: every page has it already.
  fieldButton('init').focus();
  await userEvent.keyboard('{Control>}{Shift>}d{/Shift}{/Control}');
  await userEvent.keyboard('{Control>}z{/Control}');
  const undone = await stored(draft.documentId, (list) => list.length === 1);
  expect(undone[0]!.id).toBe('init');
});

it('places a field by a touch drag from the palette, moves and resizes it by touch', async () => {
  const { draft } = await renderBuilder({ draft: await commands.createDraft({ pages: 1 }), props: { snap: false } });
  const item = screen.getByRole('button', { name: 'Text' });
  expect(getComputedStyle(item).touchAction).toBe('none');
  const page1 = pageBox().getBoundingClientRect();
  const box = item.getBoundingClientRect();
  const at = (fx: number, fy: number) => [(page1.left + fx * page1.width - box.left) / box.width, (page1.top + fy * page1.height - box.top) / box.height] as const;
  const gap = inputGap('touch');
  if (gap) {
    // This engine's driver cannot make touch input (WebKitGTK's sends it as mouse; test-input.ts, docs/decisions.md
    // "Builder: three engines and its benchmark"). The stroke is still asked for as touch, so that the test notices
    // the day it can; the mouse drag it arrives as places the field, and what is left to check is that the field and
    // its handles, like the palette, leave touch gestures to the builder.
    await expect(drawStroke(item, [[0.5, 0.5], [0.9, 0.5], at(0.1, 0.1), at(0.3, 0.15)], 'touch')).rejects.toThrow(gap);
    await waitFor(() => expect(fieldBox('text-1')).toBeTruthy());
    expect(getComputedStyle(fieldBox('text-1')!).touchAction).toBe('none');
    expect(getComputedStyle(fieldBox('text-1')!.querySelector<HTMLElement>('[data-handle="se"]')!).touchAction).toBe('none');
    return;
  }
  await drawStroke(item, [[0.5, 0.5], [0.9, 0.5], at(0.1, 0.1), at(0.3, 0.15)], 'touch');
  const [placed] = await stored(draft.documentId, (list) => list.length === 1);
  expect(placed!.id).toBe('text-1');
  expect(Math.abs(placed!.x + placed!.width / 2 - 0.3)).toBeLessThan(2 / page1.width);
  expect(Math.abs(placed!.y + placed!.height / 2 - 0.15)).toBeLessThan(2 / page1.height);

  const field = fieldBox('text-1')!;
  expect(getComputedStyle(field).touchAction).toBe('none');
  const rect = field.getBoundingClientRect();
  await drawStroke(field, [[0.5, 0.5], [0.5 + 10 / rect.width, 0.5], [0.5 + 60 / rect.width, 0.5 + 40 / rect.height]], 'touch');
  const [moved] = await stored(draft.documentId, ([each]) => each!.x !== placed!.x);
  expect(Math.abs(moved!.x - placed!.x - 60 / page1.width)).toBeLessThan(1 / page1.width);
  expect(Math.abs(moved!.y - placed!.y - 40 / page1.height)).toBeLessThan(1 / page1.height);

  const handle = fieldBox('text-1')!.querySelector<HTMLElement>('[data-handle="se"]')!;
  expect(getComputedStyle(handle).touchAction).toBe('none');
  // A finger on the corner (Chrome gives the press to the field's button, the nearest thing that takes taps): the
  // handle within reach takes it, from inside the corner too.
  const corner = fieldBox('text-1')!.getBoundingClientRect();
  const from = (px: number, py: number) => [(corner.width - 4 + px) / corner.width, (corner.height - 4 + py) / corner.height] as const;
  await drawStroke(fieldBox('text-1')!, [from(0, 0), from(10, 0), from(40, 20)], 'touch');
  const [resized] = await stored(draft.documentId, ([each]) => each!.width !== moved!.width);
  expect(resized!.x).toBeCloseTo(moved!.x, 5);
  expect(Math.abs(resized!.width - moved!.width - 40 / page1.width)).toBeLessThan(1.5 / page1.width);
  expect(Math.abs(resized!.height - moved!.height - 20 / page1.height)).toBeLessThan(1.5 / page1.height);
});

// Each long press holds for most of a second, each stroke a round trip to the browser: two minutes on a loaded machine.
it('selects several fields by touch: a long press adds a field or takes it out, a tap selects it alone, a drag moves them', { timeout: 120_000 }, async () => {
  const fields = [textField({ id: 'a', label: 'A' }), textField({ id: 'b', label: 'B', y: 0.5 }), textField({ id: 'c', label: 'C', y: 0.7 })];
  const { draft } = await renderBuilder({ draft: await commands.createDraft({ pages: 1, fields }), props: { snap: false } });
  // A finger held still for 0.8 s (a point every frame, none of them moved): longer than the 500 ms long press.
  const hold = Array.from({ length: 40 }, () => [0.5, 0.5] as const);
  const gap = inputGap('touch');
  if (gap) {
    // No touch from this engine's driver (test-input.ts): the press arrives as a mouse's, which a long press is not.
    await expect(drawStroke(fieldBox('a')!, hold, 'touch')).rejects.toThrow(gap);
    expect(pressed()).toEqual(['a']);
    return;
  }
  await drawStroke(fieldBox('a')!, [[0.5, 0.5]], 'touch');
  expect(pressed()).toEqual(['a']);
  await drawStroke(fieldBox('b')!, hold, 'touch');
  expect(pressed()).toEqual(['a', 'b']);
  await drawStroke(fieldBox('c')!, hold, 'touch');
  expect(pressed()).toEqual(['a', 'b', 'c']);
  await drawStroke(fieldBox('c')!, hold, 'touch');
  expect(pressed()).toEqual(['a', 'b']);
  expect(screen.getByText('2 fields selected')).toBeTruthy();
  // A finger's drag of a selected field moves the selection, one step of undo.
  const page = pageBox().getBoundingClientRect();
  const box = fieldBox('a')!.getBoundingClientRect();
  await drawStroke(fieldBox('a')!, [[0.5, 0.5], [0.5, 0.5 + 10 / box.height], [0.5, 0.5 + 40 / box.height]], 'touch');
  const moved = await stored(draft.documentId, (list) => byId(list, 'a').y !== 0.2);
  expect(Math.abs(byId(moved, 'a').y - 0.2 - 40 / page.height)).toBeLessThan(1 / page.height);
  expect(byId(moved, 'b').y - byId(moved, 'a').y).toBeCloseTo(0.3, 5);
  expect(byId(moved, 'c').y).toBe(0.7);
  expect(pressed()).toEqual(['a', 'b']);
  // A tap selects one alone again.
  await drawStroke(fieldBox('c')!, [[0.5, 0.5]], 'touch');
  expect(pressed()).toEqual(['c']);
});

it('shows several selected fields as a count with their actions, gives them one signer, and has no accessibility violations', async () => {
  const signers = [
    { id: 'tenant', name: 'Tina Tenant' },
    { id: 'landlord', name: 'Lars Landlord' },
  ];
  const fields = [
    textField({ id: 'a', label: 'A', signerId: 'tenant' }),
    textField({ id: 'b', label: 'B', y: 0.5, signerId: 'landlord' }),
    textField({ id: 'c', type: 'signature', label: 'Sign', y: 0.8, height: 0.06, signerId: 'tenant' }),
  ];
  const { draft } = await renderBuilder({ draft: await commands.createDraft({ pages: 2, signers, fields }) });
  await userEvent.click(fieldButton('a'));
  await clickWith(fieldButton('b'), 'Control');
  expect(screen.getByText('2 fields selected')).toBeTruthy();
  expect(screen.queryByRole('textbox', { name: 'Label' })).toBeNull();
  for (const [name, keys] of [['Copy', 'Control+C Meta+C'], ['Duplicate', 'Control+D Meta+D'], ['Delete fields', 'Delete Backspace']]) {
    expect(screen.getByRole('button', { name: name! }).getAttribute('aria-keyshortcuts')).toBe(keys);
  }

  const results = await axe.run(document.querySelector('.signet-builder')!, { resultTypes: ['violations'] });
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);

  const signer = screen.getByRole('combobox', { name: 'Signer' }) as HTMLSelectElement;
  expect(signer.value).toBe('');
  await userEvent.selectOptions(signer, 'landlord');
  const saved = await stored(draft.documentId, (list) => byId(list, 'a').signerId === 'landlord');
  expect(saved.map((field) => field.signerId)).toEqual(['landlord', 'landlord', 'tenant']);

  await userEvent.click(screen.getByRole('button', { name: 'Delete fields' }));
  await stored(draft.documentId, (list) => list.length === 1);
  expect(screen.getByText('Select a field to edit its properties.')).toBeTruthy();
});
