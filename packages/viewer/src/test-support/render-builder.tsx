import type { FieldDefinition, ManagedDocument } from '@signet/contract';
import { render, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { commands } from 'vitest/browser';
import { SigningBuilder, type SigningBuilderProps } from '../builder/index.js';
import type { CreatedDraft, ReadDraft } from './draft-commands.js';

/*
 * What the builder's browser tests share: a draft on the real server rendered in `<SigningBuilder>`, what the
 * server has stored of it, and the page's and fields' elements.
 */

/** The sample PDF's pages: US Letter, in points. */
export const PAGE = { width: 612, height: 792 };

/** A required text field on page 1, with `overrides`. */
export const textField = (overrides: Partial<FieldDefinition> = {}): FieldDefinition => ({
  id: 'name',
  type: 'text',
  page: 1,
  x: 0.2,
  y: 0.2,
  width: 0.3,
  height: 0.03,
  required: true,
  editable: true,
  label: 'Full name',
  ...overrides,
});

/**
 * Renders the builder on `draft` (a new two-page draft by default) in a 1000 × 760 box, the narrowest it must fit,
 * recording its events; resolves once page 1 is drawn (or at once, `until: 'mounted'`).
 */
export async function renderBuilder(options: { draft?: CreatedDraft; props?: Partial<SigningBuilderProps>; until?: 'drawn' | 'mounted' } = {}) {
  const draft = options.draft ?? (await commands.createDraft({ pages: 2 }));
  const events = { changes: [] as FieldDefinition[][], saves: [] as number[], sends: [] as ManagedDocument[], errors: [] as Error[] };
  render(
    <div style={{ height: '760px', width: '1000px' }}>
      <SigningBuilder
        documentId={draft.documentId}
        apiKey={draft.apiKey}
        baseUrl={draft.baseUrl}
        retry={{ baseDelayMs: 5, maxDelayMs: 20 }}
        onChange={(fields) => events.changes.push(fields)}
        onSave={({ version }) => events.saves.push(version)}
        onSend={(document) => events.sends.push(document)}
        onError={(error) => events.errors.push(error)}
        {...options.props}
      />
    </div>,
  );
  if (options.until === 'mounted') return { draft, events };
  // The first test of a file also waits for pdf.js and its worker to load: on a loaded CI machine, many seconds.
  await waitFor(() => expect(document.querySelector('[data-page-number="1"] canvas[data-rendered="true"]')).toBeTruthy(), { timeout: 40_000 });
  // Page 1's preview image joins the page under its canvas once decoded, which may be after pdf.js has drawn the
  // page; it moves the page's other children, and WebKit's driver clicks an element by its path of child positions
  // (a click taken then finds nothing). The tests start once it is there: every test draft has a preview.
  await waitFor(() => expect(document.querySelector('[data-page-number="1"] img.signet-page-preview')).toBeTruthy(), { timeout: 40_000 });
  return { draft, events };
}

/** The draft as the server holds it once `check` passes (autosave is debounced). */
export async function storedDraft(documentId: string, check: (draft: ReadDraft) => boolean): Promise<ReadDraft> {
  let last: ReadDraft | undefined;
  await waitFor(
    async () => {
      last = await commands.readDraft(documentId);
      expect(check(last), JSON.stringify(last)).toBe(true);
    },
    { timeout: 20_000, interval: 200 },
  );
  return last!;
}

/** The draft's fields as the server holds them once `check` passes. */
export async function stored(documentId: string, check: (fields: FieldDefinition[]) => boolean): Promise<FieldDefinition[]> {
  return (await storedDraft(documentId, (draft) => check(draft.fields))).fields;
}

export const pageBox = (n = 1) => document.querySelector<HTMLElement>(`.signet-page[data-page-number="${n}"]`)!;
export const fieldBox = (id: string) => document.querySelector<HTMLElement>(`[data-field-id="${id}"]`);
export const fieldButton = (id: string) => fieldBox(id)!.querySelector('button')!;
