import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import type { SubmissionResult } from '@signet/contract';
import { SigningViewer } from './SigningViewer.js';
import { enterText, typeSignature } from './test-support/fill-fields.js';
import type { CreatedLease } from './test-support/commands.js';

/*
 * Several signers: the viewer with a session key shows the whole document, the signer's own fields to
 * fill in and the others' read-only, with their values once they have signed.
 */

afterEach(() => cleanup());

function renderAs(lease: CreatedLease, signer: 'tenant' | 'landlord') {
  const completed: SubmissionResult[] = [];
  const errors: Error[] = [];
  render(
    <div style={{ height: '900px', width: '900px' }}>
      <SigningViewer
        documentId={lease.documentId}
        apiKey={lease.keys[signer]}
        baseUrl={lease.baseUrl}
        retry={{ baseDelayMs: 5, maxDelayMs: 20 }}
        onComplete={(result) => completed.push(result)}
        onError={(error) => errors.push(error)}
      />
    </div>,
  );
  return { completed, errors };
}

const untilPainted = () =>
  waitFor(() => expect(document.querySelector('[data-page-number="1"] canvas[data-rendered="true"]')).toBeTruthy(), { timeout: 15_000 });

// Three signature dialogs and a submission: slower than most under a loaded CI machine.
describe('several signers', { timeout: 60_000 }, () => {
  it('tells a signer whose turn has not come whom they wait for, and lets them fill in nothing', async () => {
    const lease = await commands.createLease();
    renderAs(lease, 'landlord');
    await untilPainted();
    const notice = await screen.findByText('Not your turn yet');
    expect(notice.closest('[role="status"]')!.textContent).toContain('Waiting for Tina Tenant to sign first.');
    // The tenant's fields are theirs: notes, not controls.
    expect(screen.getByRole('note', { name: 'Full legal name: To be signed by Tina Tenant' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Full legal name' })).toBeNull();
    // Nothing to submit while waiting: no guidance bar, and the landlord's own signature cannot be opened.
    expect(screen.queryByRole('button', { name: /finish and submit/i })).toBeNull();
    const own = await screen.findByRole('button', { name: 'Landlord signature' });
    expect((own as HTMLButtonElement).disabled).toBe(true);
  });

  it("counts and submits only the signer's own fields; the other signer's are marked as theirs", async () => {
    const lease = await commands.createLease();
    const { completed, errors } = renderAs(lease, 'tenant');
    await untilPainted();
    expect(await screen.findByText('0 of 5 required fields complete')).toBeTruthy();
    expect(screen.getByRole('note', { name: 'Landlord signature: To be signed by Lars Landlord' })).toBeTruthy();

    await enterText(screen.getByRole('textbox', { name: 'Full legal name' }), 'Tina Tenant');
    await typeSignature('Initials', 'TT');
    await userEvent.click(screen.getByRole('checkbox', { name: /agree to the terms/ }));
    await typeSignature('Signature', 'Tina Tenant');
    await enterText(screen.getByLabelText('Date'), '2026-11-24');
    expect(screen.getByText('All required fields are complete')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /finish and submit/i }));

    await waitFor(() => expect([completed.length, errors.map((error) => error.message)]).toEqual([1, []]), { timeout: 15_000 });
    const panel = screen.getByText('Document signed').closest('.signet-status')!;
    expect(panel.closest('.signet-announcer[aria-live="polite"]')).toBeTruthy();
    expect(panel.textContent).toContain('The document is complete once the others have signed: Lars Landlord.');
    const stored = await commands.storedSubmissions(lease.documentId);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.signerId).toBe('tenant');
    expect(stored[0]!.fields.map((field) => field.id)).not.toContain('landlord_signature');
  });

  it("Next goes to the signer's own fields only; a submit refused as not_your_turn says whom they wait for", async () => {
    // Parallel order lets the landlord start; the refusal stands for the server's answer when the order changed meanwhile.
    const lease = await commands.createLease({ signingOrder: 'parallel' });
    const { completed, errors } = renderAs(lease, 'landlord');
    await untilPainted();
    expect(await screen.findByText('0 of 2 required fields complete')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next field' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Landlord signature' })));

    await typeSignature('Landlord signature', 'Lars Landlord');
    await enterText(screen.getByLabelText('Date'), '2026-11-25');
    await commands.failSubmits(lease.documentId, 1, 409, {
      code: 'SUBMISSION_FAILED',
      message: 'Another signer signs first',
      details: { reason: 'not_your_turn', waitingFor: ['tenant'] },
    });
    await userEvent.click(screen.getByRole('button', { name: /finish and submit/i }));
    const notice = await screen.findByText('Not your turn yet');
    expect(notice.closest('[role="status"]')!.textContent).toContain('Waiting for Tina Tenant to sign first.');
    expect(screen.queryByText('Another signer signs first')).toBeNull();
    expect(completed).toEqual([]);
    expect(errors.map((error) => (error as { details?: { reason?: string } }).details?.reason)).toEqual(['not_your_turn']);
    expect(await commands.storedSubmissions(lease.documentId)).toEqual([]);
  });

  it("shows the first signer's values read-only to the second, who completes the document", async () => {
    const lease = await commands.createLease();
    await commands.signAs(lease.documentId, 'tenant');
    const { completed, errors } = renderAs(lease, 'landlord');
    await untilPainted();
    expect(await screen.findByText('0 of 2 required fields complete')).toBeTruthy();
    const name = screen.getByRole('textbox', { name: 'Full legal name' }) as HTMLInputElement;
    expect(name.readOnly).toBe(true);
    expect(name.value).not.toBe('');
    const tenantSignature = screen.getByRole('button', { name: 'Signature' }) as HTMLButtonElement;
    expect(tenantSignature.disabled).toBe(true);
    expect(tenantSignature.querySelector('canvas.signet-sign-image')).toBeTruthy();
    expect(document.getElementById(tenantSignature.getAttribute('aria-describedby')!)!.textContent).toBe('Signed by Tina Tenant');

    await typeSignature('Landlord signature', 'Lars Landlord');
    const dates = screen.getAllByLabelText('Date') as HTMLInputElement[];
    const own = dates.find((input) => !input.readOnly)!;
    await enterText(own, '2026-11-25');
    await userEvent.click(screen.getByRole('button', { name: /finish and submit/i }));
    await waitFor(() => expect([completed.length, errors.map((error) => error.message)]).toEqual([1, []]), { timeout: 15_000 });
    expect(screen.getByText('Document signed')).toBeTruthy();
    const stored = await commands.storedSubmissions(lease.documentId);
    expect(stored.map((submission) => submission.signerId)).toEqual(['tenant', 'landlord']);
    expect(stored[1]!.fields.map((field) => field.id)).toEqual(['landlord_signature', 'landlord_date']);
  });
});
