import { cleanup, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import type { ReadDraft } from '../test-support/draft-commands.js';
import { fieldButton, renderBuilder, storedDraft as stored, textField as field } from '../test-support/render-builder.js';

/*
 * The properties panel's id, read-only, prefill and rule editors and the signers section, against the real server:
 * what it stores, and that a draft edited so is sent.
 */

afterEach(cleanup);

const byId = (draft: ReadDraft, id: string) => draft.fields.find((each) => each.id === id);

/**
 * Empties a text box as a person does: select what it holds, Backspace. Not `userEvent.clear`: in WebKit that is
 * WebDriver's element clear, which sets the value without an input event React sees (and takes the focus away).
 */
async function emptyByKeys(input: HTMLElement): Promise<void> {
  await userEvent.click(input);
  (input as HTMLInputElement).select();
  await userEvent.keyboard('{Backspace}');
}

// Many keystrokes, each a round trip to the browser: on a loaded CI machine, more than the suite's minute.
it('edits a field’s id, read-only flag, prefill and rules; an id that cannot be saved is said in words and not applied', { timeout: 150_000 }, async () => {
  const signers = [{ id: 'tenant', name: 'Tina Tenant' }];
  const fields = [
    field({ signerId: 'tenant' }),
    field({ id: 'amount', type: 'number', label: 'Amount', y: 0.3, required: false, signerId: 'tenant' }),
    field({ id: 'agree', type: 'checkbox', label: 'I agree', y: 0.4, width: 0.03, required: false, signerId: 'tenant' }),
    field({ id: 'sign', type: 'signature', label: 'Sign', y: 0.8, height: 0.06, signerId: 'tenant' }),
  ];
  const draft = await commands.createDraft({ pages: 1, signers, fields });
  await renderBuilder({ draft });

  await userEvent.click(fieldButton('name'));
  const id = await screen.findByRole('textbox', { name: 'Field id' });
  expect(id).toHaveValue('name');
  await emptyByKeys(id);
  // Blank is no id: said beside the input, and the field keeps its own.
  expect(id).toHaveAccessibleDescription('Not applied: use 1 to 64 letters, digits or _ . : -');
  expect(id).toHaveAttribute('aria-invalid', 'true');
  await userEvent.type(id, 'amount');
  expect(id).toHaveAccessibleDescription('Not applied: another field has this id');
  await emptyByKeys(id);
  await userEvent.type(id, 'tenant name');
  expect(id).toHaveAccessibleDescription('Not applied: use 1 to 64 letters, digits or _ . : -');
  await userEvent.keyboard('{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}');
  await userEvent.type(id, '.name');
  expect(id).toHaveValue('tenant.name');
  expect(id).not.toHaveAccessibleDescription();
  await stored(draft.documentId, (saved) => byId(saved, 'tenant.name') !== undefined && !saved.fields.some((each) => /\s/.test(each.id)));
  // Typing the id was one step of undo: back to the loaded id, and forward again.
  await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
  await waitFor(() => expect(fieldButton('name')).toBeTruthy());
  await userEvent.click(fieldButton('name'));
  expect(screen.getByRole('textbox', { name: 'Field id' })).toHaveValue('name');
  await userEvent.click(screen.getByRole('button', { name: 'Redo' }));
  await waitFor(() => expect(fieldButton('tenant.name')).toBeTruthy());
  await userEvent.click(fieldButton('tenant.name'));
  expect(screen.getByRole('textbox', { name: 'Field id' })).toHaveValue('tenant.name');

  await userEvent.click(screen.getByRole('checkbox', { name: 'Read-only (the signer cannot change it)' }));
  await userEvent.type(screen.getByRole('textbox', { name: 'Prefilled value' }), 'Ada Lovelace');
  await userEvent.type(screen.getByRole('textbox', { name: 'Maximum length' }), '40');
  // Typed, not filled: Firefox's fill sets the value without an input event React sees (test-support/fill-fields.ts).
  // `[[` is the keyboard syntax's literal `[`.
  await userEvent.type(screen.getByRole('textbox', { name: 'Pattern (regular expression)' }), '[[A-Za-z ]+');
  await userEvent.type(await screen.findByRole('textbox', { name: 'Message when it does not match' }), 'Letters only');

  await userEvent.click(fieldButton('amount'));
  await userEvent.type(await screen.findByRole('textbox', { name: 'Minimum' }), '1');
  const step = screen.getByRole('textbox', { name: 'Step' });
  await userEvent.type(step, '0');
  expect(step).toHaveAccessibleDescription('Not applied: a number above 0');
  await userEvent.type(step, '.5');
  expect(step).not.toHaveAccessibleDescription();
  await userEvent.type(screen.getByRole('textbox', { name: 'Prefilled value' }), '2.5');

  await userEvent.click(fieldButton('agree'));
  await userEvent.click(await screen.findByRole('checkbox', { name: 'Ticked beforehand' }));

  const saved = await stored(draft.documentId, (each) => byId(each, 'agree')?.value !== undefined && byId(each, 'amount')?.value !== undefined);
  expect(byId(saved, 'tenant.name')).toMatchObject({
    editable: false,
    value: { type: 'text', content: 'Ada Lovelace' },
    validation: { maxLength: 40, pattern: '[A-Za-z ]+', message: 'Letters only' },
  });
  expect(byId(saved, 'name')).toBeUndefined();
  expect(byId(saved, 'amount')).toMatchObject({ editable: true, value: { type: 'number', content: '2.5' }, validation: { min: 1, step: 0.5 } });
  expect(byId(saved, 'agree')).toMatchObject({ value: { type: 'checkbox', checked: true } });
  // No property editor for what a signature field does not take.
  await userEvent.click(fieldButton('sign'));
  await screen.findByRole('checkbox', { name: 'Read-only (the signer cannot change it)' });
  expect(screen.queryByRole('textbox', { name: 'Prefilled value' })).toBeNull();
  expect(screen.queryByRole('group', { name: 'Rules' })).toBeNull();
});

it('sets the font size of a field written as text, says in words a size it cannot take, and offers none for a box', async () => {
  const fields = [field(), field({ id: 'agree', type: 'checkbox', label: 'I agree', y: 0.4, width: 0.03, required: false })];
  const draft = await commands.createDraft({ pages: 1, fields });
  await renderBuilder({ draft });
  await userEvent.click(fieldButton('name'));
  const size = await screen.findByRole('textbox', { name: 'Font size (pt)' });
  expect(size).toHaveAttribute('placeholder', 'Automatic');
  await userEvent.type(size, '80');
  expect(size).toHaveAccessibleDescription('Not applied: 4 to 72 points');
  expect(size).toHaveAttribute('aria-invalid', 'true');
  await userEvent.keyboard('{Backspace}{Backspace}');
  await userEvent.type(size, '11');
  expect(size).not.toHaveAccessibleDescription();
  expect(byId(await stored(draft.documentId, (saved) => byId(saved, 'name')?.fontSize !== undefined), 'name')!.fontSize).toBe(11);
  // Blank again: the size follows the field's height, and the member is gone.
  await emptyByKeys(size);
  await stored(draft.documentId, (saved) => !('fontSize' in byId(saved, 'name')!));
  // A box has no text to size.
  await userEvent.click(fieldButton('agree'));
  await screen.findByRole('checkbox', { name: 'Read-only (the signer cannot change it)' });
  expect(screen.queryByRole('textbox', { name: 'Font size (pt)' })).toBeNull();
});

it('adds, renames and reorders signers, sets the signing order, gives a field to the new signer, and sends', async () => {
  const signers = [{ id: 'tenant', name: 'Tina Tenant' }];
  const fields = [
    field({ id: 'tenant-sign', type: 'signature', label: 'Tenant signature', y: 0.7, height: 0.06, signerId: 'tenant' }),
    field({ id: 'guarantor-sign', type: 'signature', label: 'Guarantor signature', y: 0.8, height: 0.06, signerId: 'tenant' }),
  ];
  const draft = await commands.createDraft({ pages: 1, signers, fields, allowSend: true });
  const { events } = await renderBuilder({ draft, props: { allowSend: true } });

  await userEvent.click(await screen.findByText('Signers (1)'));
  const name = screen.getByRole('textbox', { name: 'New signer’s name' });
  const email = screen.getByRole('textbox', { name: 'Email (optional)' });
  await userEvent.type(name, 'Gary');
  await userEvent.type(email, 'gary@example');
  await userEvent.click(screen.getByRole('button', { name: 'Add signer' }));
  expect(email).toHaveAccessibleDescription('Not an email address');
  expect(screen.queryByRole('textbox', { name: 'Name of signer 2' })).toBeNull();
  await userEvent.type(email, '.com');
  await userEvent.click(screen.getByRole('button', { name: 'Add signer' }));
  const second = await screen.findByRole('textbox', { name: 'Name of signer 2' });
  expect(second).toHaveValue('Gary');
  expect(name).toHaveValue('');

  // Renamed in place; a blank name is not applied.
  await emptyByKeys(second);
  expect(second).toHaveAccessibleDescription('Not applied: a name is needed');
  await userEvent.type(second, 'Gary Guarantor');
  expect(second).not.toHaveAccessibleDescription();

  // Moved up with the keyboard: the focus stays on the signer's buttons.
  screen.getByRole('button', { name: 'Move Gary Guarantor up' }).focus();
  await userEvent.keyboard('{Enter}');
  await waitFor(() => expect(screen.getByRole('textbox', { name: 'Name of signer 1' })).toHaveValue('Gary Guarantor'));
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Gary Guarantor down' }));
  await userEvent.click(screen.getByRole('radio', { name: 'One after another, in this order' }));

  // The new signer is offered for fields; a signer who still has fields is not removed.
  await userEvent.click(fieldButton('guarantor-sign'));
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Signer' }), 'Gary Guarantor');
  await userEvent.click(screen.getByRole('button', { name: 'Remove Tina Tenant' }));
  await expect.element(screen.getByText('Tina Tenant still has fields: give them to another signer first.')).toBeVisible();
  expect(screen.getByRole('textbox', { name: 'Name of signer 2' })).toHaveValue('Tina Tenant');

  const saved = await stored(draft.documentId, (each) => each.signingOrder === 'sequential' && byId(each, 'guarantor-sign')?.signerId === 'gary');
  expect(saved.signers).toEqual([
    { id: 'gary', name: 'Gary Guarantor', email: 'gary@example.com', order: 1 },
    { id: 'tenant', name: 'Tina Tenant', order: 2 },
  ]);
  expect(byId(saved, 'tenant-sign')?.signerId).toBe('tenant');

  const results = await axe.run(document.querySelector('.signet-builder')!, { resultTypes: ['violations'] });
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  // The signers section fits the 1000 px builder: nothing sticks out of its column.
  const column = document.querySelector('.signet-builder-side-column')!.getBoundingClientRect();
  for (const element of document.querySelectorAll('.signet-builder-signers input, .signet-builder-signers button')) {
    const box = element.getBoundingClientRect();
    expect(box.right).toBeLessThanOrEqual(column.right + 0.5);
    expect(box.left).toBeGreaterThanOrEqual(column.left - 0.5);
  }

  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
  await waitFor(() => expect(events.sends).toHaveLength(1), { timeout: 8_000 });
  expect(events.sends[0]).toMatchObject({ id: draft.documentId, status: 'pending' });
});

it('gives a draft without signers its first signer, who takes every field, and removes a signer without fields', async () => {
  const draft = await commands.createDraft({ pages: 1, fields: [field({ id: 'sign', type: 'signature', label: 'Sign' })] });
  await renderBuilder({ draft });
  await userEvent.click(await screen.findByText('Signers (0)'));
  expect(screen.getByText('No named signers yet: whoever signs fills in every field.')).toBeTruthy();
  for (const each of ['Tina Tenant', 'Lars Landlord']) {
    await userEvent.type(screen.getByRole('textbox', { name: 'New signer’s name' }), `${each}{Enter}`);
    await screen.findByRole('button', { name: `Remove ${each}` });
  }
  await userEvent.click(screen.getByRole('button', { name: 'Remove Lars Landlord' }));
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove Lars Landlord' })).toBeNull());
  const saved = await stored(draft.documentId, (each) => each.signers?.length === 1);
  expect(saved.signers).toEqual([{ id: 'tina-tenant', name: 'Tina Tenant', order: 1 }]);
  expect(saved.signingOrder).toBe('parallel');
  expect(saved.fields[0]!.signerId).toBe('tina-tenant');
});
