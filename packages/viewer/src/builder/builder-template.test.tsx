import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { fieldButton, textField } from '../test-support/render-builder.js';
import { SigningBuilder } from './index.js';

/*
 * The builder on a template (docs/templates.md): it loads the template through its builder session key, shows its
 * roles where a draft's signers are (names and order, no e-mail addresses), and saves each change as a new version
 * of the template, which the server holds (read back with the organisation's sk key).
 */

afterEach(cleanup);

it('edits a template: its roles without e-mail addresses, a placed field saved as version 2 of the template', { timeout: 120_000 }, async () => {
  const roles = [
    { id: 'tenant', name: 'Tenant', order: 1 },
    { id: 'landlord', name: 'Landlord', order: 2 },
  ];
  const template = await commands.createTemplate({ fields: [textField({ signerId: 'tenant' })], roles });
  const saves: number[] = [];
  const errors: Error[] = [];
  render(
    <div style={{ height: '760px', width: '1000px' }}>
      <SigningBuilder
        templateId={template.documentId}
        apiKey={template.apiKey}
        baseUrl={template.baseUrl}
        allowSend
        onSave={({ version }) => saves.push(version)}
        onError={(error) => errors.push(error)}
      />
    </div>,
  );
  await waitFor(() => expect(document.querySelector('[data-page-number="1"] canvas[data-rendered="true"]')).toBeTruthy(), { timeout: 40_000 });
  expect(fieldButton('name')).toBeTruthy();
  // A template is never sent from the builder: no Send button, whatever the host asks.
  expect(screen.queryByRole('button', { name: /^Send/ })).toBeNull();

  // Its roles are the builder's signers: named and ordered, with no e-mail inputs.
  // The signers' panel is loaded on demand (React.lazy): it may come after page 1 on a busy machine.
  const panel = await waitFor(() => {
    const found = document.querySelector<HTMLDetailsElement>('.signet-builder-signers');
    if (!found) throw new Error('no signers panel yet');
    return found;
  });
  panel.open = true;
  await waitFor(() => expect(panel.querySelectorAll('.signet-signer-row')).toHaveLength(2));
  expect([...panel.querySelectorAll<HTMLInputElement>('.signet-signer-row input[type="text"]')].map((input) => input.value)).toEqual(['Tenant', 'Landlord']);
  expect(panel.querySelector('input[type="email"]')).toBeNull();

  screen.getByRole('button', { name: 'Signature' }).focus();
  await userEvent.keyboard('{Enter}');
  await waitFor(() => expect(document.activeElement).toBe(fieldButton('signature-1')));

  let stored = await commands.readTemplate(template.documentId);
  await waitFor(
    async () => {
      stored = await commands.readTemplate(template.documentId);
      expect(stored.fields.map((field) => field.id)).toEqual(['name', 'signature-1']);
    },
    { timeout: 20_000, interval: 200 },
  );
  expect(stored.version).toBe(2);
  expect(stored.signers).toEqual(roles);
  await waitFor(() => expect(saves.at(-1)).toBe(2));
  expect(errors).toEqual([]);
});
