import type { FieldDefinition } from '@signet/contract';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { renderViewer, untilReady } from './test-support/render-viewer.js';

/* A document whose every field the sender filled in and made read-only: the signer reads it and completes it. */

afterEach(() => cleanup());

const box = { page: 1, width: 0.3, height: 0.04, x: 0.1 } as const;
const fields: FieldDefinition[] = [
  { ...box, id: 'name', type: 'text', label: 'Full legal name', y: 0.2, required: true, editable: false, value: { type: 'text', content: 'Ada Lovelace' } },
  { ...box, id: 'terms', type: 'checkbox', label: 'I agree to the terms', y: 0.3, width: 0.03, required: true, editable: false, value: { type: 'checkbox', checked: true } },
  { ...box, id: 'plan', type: 'select', label: 'Plan', y: 0.4, required: false, editable: false, options: [{ value: 'basic', label: 'Basic' }], value: { type: 'select', value: 'basic' } },
];

it('completes a document whose fields are all prefilled and read-only', async () => {
  const doc = await commands.createDocument({ pages: 1, fields });
  const { events } = await renderViewer({ document: doc });
  await untilReady();
  expect(screen.getByText('All required fields are complete')).toBeTruthy();
  const submit = screen.getByRole('button', { name: /finish and submit/i });
  expect(submit).toHaveProperty('disabled', false);
  await userEvent.click(submit);
  await waitFor(() => expect(events.completed).toHaveLength(1), { timeout: 15_000 });
  const stored = (await commands.storedSubmission(doc.documentId)) as { fields: Array<{ id: string; value: unknown }> };
  expect(stored.fields.map((field) => field.id).sort()).toEqual(['name', 'plan', 'terms']);
  expect(events.errors).toEqual([]);
});
