import { submissionChecksum } from '@signet/contract';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { completeThroughApi, enterText, fillAll } from './test-support/fill-fields.js';
import { renderViewer, untilReady } from './test-support/render-viewer.js';

afterEach(() => cleanup());

const submitButton = () => screen.getByRole('button', { name: /finish and submit|submitting/i });

describe('<SigningViewer>', () => {
  it('guides through the required fields; Submit only when complete', async () => {
    const { events } = await renderViewer();
    await untilReady();
    expect(events.ready).toBe(1);
    expect(screen.getByText('0 of 5 required fields complete')).toBeTruthy();
    expect(submitButton()).toHaveProperty('disabled', true);

    await userEvent.click(screen.getByRole('button', { name: 'Next field' }));
    const name = screen.getByRole('textbox', { name: 'Full legal name' });
    expect(document.activeElement).toBe(name);
    expect(name.getAttribute('aria-required')).toBe('true');
    await userEvent.type(name, 'Ada');
    expect(screen.getByText('1 of 5 required fields complete')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next field' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Initials' }));

    // The read-only prefilled field shows its value and cannot be changed.
    const agreement = screen.getByRole('textbox', { name: 'Agreement number' });
    expect((agreement as HTMLInputElement).value).toBe('AGR-2025-0042');
    expect((agreement as HTMLInputElement).readOnly).toBe(true);

    await fillAll();
    expect(screen.getByText('All required fields are complete')).toBeTruthy();
    expect(submitButton()).toHaveProperty('disabled', false);
    expect(events.changes).toContain('signature');
  });

  it('fields sit at their fractions of the page at two zoom levels', async () => {
    await renderViewer({ pages: 1 });
    await untilReady();
    const check = () => {
      const page = document.querySelector<HTMLElement>('[data-page-number="1"]')!.getBoundingClientRect();
      const field = screen.getByRole('textbox', { name: 'Full legal name' }).parentElement!.getBoundingClientRect();
      // signer_name: 72 pt from the left, 188 pt from the top of a 612 × 792 pt page, 222 × 22 pt.
      expect((field.left - page.left) / page.width).toBeCloseTo(72 / 612, 2);
      expect((field.top - page.top) / page.height).toBeCloseTo(188 / 792, 2);
      expect(field.width / page.width).toBeCloseTo(222 / 612, 2);
      return page.width;
    };
    const fitted = check();
    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    await waitFor(() => expect(document.querySelector<HTMLElement>('[data-page-number="1"]')!.getBoundingClientRect().width).toBeGreaterThan(fitted * 1.1));
    check();
  });

  it('submits what is on screen: one submission with the values, render context, pages and checksum', async () => {
    const { doc, events } = await renderViewer();
    await untilReady();
    await fillAll();
    await commands.takeRequests(doc.documentId);
    await userEvent.click(submitButton());
    await screen.findByText('Document signed', {}, { timeout: 10_000 });
    expect(events.completed).toHaveLength(1);

    const stored = (await commands.storedSubmission(doc.documentId)) as Record<string, any>;
    expect(stored.id).toBe(events.completed[0]!.submissionId);
    const { id: _id, storedChecksum: _stored, ...payload } = stored;
    expect(stored.storedChecksum).toBe(await submissionChecksum(payload));
    expect(stored.checksum).toBe(stored.storedChecksum);
    const values = Object.fromEntries((stored.fields as Array<{ id: string; value: unknown }>).map((field) => [field.id, field.value]));
    expect(values['signer_name']).toEqual({ type: 'text', content: 'Ada Lovelace' });
    expect(values['accept_terms']).toEqual({ type: 'checkbox', checked: true });
    expect(values['signed_date']).toEqual({ type: 'date', content: '2026-11-22' });
    expect((values['signature'] as { imageData: string }).imageData).toMatch(/^data:image\/png;base64,/);
    expect(stored.renderContext).toMatchObject({ devicePixelRatio: window.devicePixelRatio, viewportWidth: expect.any(Number) });
    expect(stored.renderContext.scale).toBeGreaterThan(0.5);
    expect(stored.pages).toEqual([
      { pageNumber: 1, width: 612, height: 792, rotation: 0 },
      { pageNumber: 2, width: 612, height: 792, rotation: 0 },
    ]);
    const posts = (await commands.takeRequests(doc.documentId)).filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);

    // Completed: read-only, no Submit.
    expect((screen.getByRole('textbox', { name: 'Full legal name' }) as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByRole('button', { name: 'Signature' })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: /finish and submit/i })).toBeNull();
  });

  it('transient failures are retried with one Idempotency-Key: one submission', async () => {
    const { doc, events } = await renderViewer();
    await untilReady();
    await fillAll();
    await commands.takeRequests(doc.documentId);
    await commands.failSubmits(doc.documentId, 2, 503);
    await userEvent.click(submitButton());
    await screen.findByText('Document signed', {}, { timeout: 10_000 });
    const posts = (await commands.takeRequests(doc.documentId)).filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((post) => post.idempotencyKey)).size).toBe(1);
    expect(((await commands.storedSubmission(doc.documentId)) as { id: string }).id).toBe(events.completed[0]!.submissionId);
  });

  it("a 422 is shown on the field the server names; fixing it submits", async () => {
    const { doc } = await renderViewer();
    await untilReady();
    await fillAll();
    await commands.failSubmits(doc.documentId, 1, 422, {
      code: 'VALIDATION_ERROR',
      message: 'Required fields are missing',
      details: { missingFields: ['signed_date'] },
    });
    await userEvent.click(submitButton());
    await screen.findByText('Please check the highlighted fields.');
    const date = screen.getByLabelText('Date');
    expect(date.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Full legal name' }).getAttribute('aria-invalid')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(date));

    await enterText(date, '2026-11-21');
    expect(date.getAttribute('aria-invalid')).toBeNull();
    await userEvent.click(submitButton());
    await screen.findByText('Document signed', {}, { timeout: 10_000 });
    expect(await commands.storedSubmission(doc.documentId)).toMatchObject({ documentId: doc.documentId });
  });

  it('a completed document opens read-only', async () => {
    const doc = await commands.createDocument({ pages: 2 });
    await completeThroughApi(doc);
    await renderViewer({ document: doc });
    await untilReady();
    expect(screen.getByText('Already signed')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Full legal name' }) as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByRole('checkbox', { name: /agree to the terms/ })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: /finish and submit/i })).toBeNull();
  });

  it('a bad key or an unknown document says so instead of a blank page', async () => {
    const doc = await commands.createDocument({ pages: 1 });
    await renderViewer({ document: { ...doc, apiKey: 'pk_test_doesnotexistdoesnotexist00' } });
    expect((await screen.findByRole('alert')).textContent).toContain('The signing link is not valid');
    cleanup();
    const { events } = await renderViewer({ document: { ...doc, documentId: 'doc_0000000000000000000000' } });
    expect((await screen.findByRole('alert')).textContent).toContain('The document was not found');
    expect(events.errors[0]).toMatchObject({ code: 'DOCUMENT_NOT_FOUND' });
  });

  it('speaks German, and any text can be overridden', async () => {
    await renderViewer({ props: { locale: 'de-DE', messages: { next: 'Weiter' } } });
    await untilReady();
    expect(screen.getByText('0 von 5 Pflichtfeldern ausgefüllt')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Abschließen und senden' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Weiter' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Vergrößern' })).toBeTruthy();
    // A no-break space, as German writes it (the matcher sees it as a plain space).
    expect(screen.getByText('100 %').textContent).toBe('100\u00a0%');
  });
});
