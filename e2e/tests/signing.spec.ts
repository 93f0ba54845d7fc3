import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createDocument, drawnAsCanvas, expect, openDocument, pdfsig, signByTyping, storedSubmission, test } from './fixtures.js';

/** Draws a signature on the dialog's pad with real mouse strokes. */
async function drawWithMouse(page: Page, pad: Locator) {
  const box = (await pad.boundingBox())!;
  const strokes = [
    [[0.1, 0.7], [0.25, 0.3], [0.35, 0.75], [0.5, 0.35], [0.6, 0.7]],
    [[0.62, 0.5], [0.75, 0.3], [0.9, 0.6]],
  ];
  for (const stroke of strokes) {
    const [first, ...rest] = stroke;
    await page.mouse.move(box.x + box.width * first![0]!, box.y + box.height * first![1]!);
    await page.mouse.down();
    for (const [x, y] of rest) await page.mouse.move(box.x + box.width * x!, box.y + box.height * y!, { steps: 8 });
    await page.mouse.up();
  }
}

test('the full signing flow: one submission holding what the page showed, then the signed PDF', async ({ page }) => {
  const documentId = await createDocument(page);
  await openDocument(page, documentId);

  await page.getByRole('textbox', { name: 'Full legal name' }).fill('Ada Lovelace');
  await page.getByRole('textbox', { name: 'Company' }).fill('Analytical Engines Ltd');
  await signByTyping(page, 'Initials', 'AL');

  await page.getByRole('checkbox', { name: /agree to the terms/ }).check();
  await page.getByRole('button', { name: 'Signature', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await drawWithMouse(page, dialog.locator('canvas'));
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toBeHidden();
  await page.getByLabel('Date', { exact: true }).fill('2026-11-22');

  await expect(page.getByText('All required fields are complete')).toBeVisible();
  // The placed signature is drawn on a canvas: what it shows, as this browser encodes it, is compared below with the
  // stored PNG drawn the same way.
  const signatureCanvas = page.getByRole('button', { name: 'Signature', exact: true }).locator('canvas');
  await expect.poll(() => signatureCanvas.evaluate((canvas: HTMLCanvasElement) => canvas.width)).toBeGreaterThan(0);
  const shownSignature = await signatureCanvas.evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL());
  const scale = await page.evaluate(() => window.devicePixelRatio);
  await page.getByRole('button', { name: 'Finish and submit' }).click();

  const result = page.getByRole('region', { name: 'Submission result' });
  await expect(result).toContainText('Signed.');
  const submissionId = (await result.locator('code').textContent())!;

  const stored = (await storedSubmission(page, documentId))!;
  expect(stored.id).toBe(submissionId);
  const values = Object.fromEntries(stored.fields.map((field) => [field.id, field.value]));
  expect(values).toMatchObject({
    signer_name: { type: 'text', content: 'Ada Lovelace' },
    signer_company: { type: 'text', content: 'Analytical Engines Ltd' },
    accept_terms: { type: 'checkbox', checked: true },
    signed_date: { type: 'date', content: '2026-11-22' },
    agreement_number: { type: 'text', content: 'AGR-2025-0042' },
  });
  const storedSignature = values['signature'] as { type: string; imageData: string };
  expect(storedSignature.type).toBe('signature');
  expect(await page.evaluate(drawnAsCanvas, storedSignature.imageData)).toBe(shownSignature);
  expect(values['signer_initials']).toMatchObject({ type: 'initials', imageData: expect.stringMatching(/^data:image\/png;base64,/) });
  expect(stored.renderContext.devicePixelRatio).toBe(scale);
  expect(stored.renderContext.scale).toBeGreaterThan(0);
  expect(stored.pages).toEqual([1, 2, 3].map((pageNumber) => ({ pageNumber, width: 612, height: 792, rotation: 0 })));
  // The link to the stored submission works.
  await expect(result.getByRole('link', { name: 'View the stored submission' })).toHaveAttribute('href', `/demo-api/documents/${documentId}/submission`);

  // The server seals the submission in the background; the completed state offers the signed PDF once it is ready.
  const signedCopy = page.getByRole('link', { name: 'Download signed PDF' });
  await expect(signedCopy).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), signedCopy.click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const path = test.info().outputPath('signed.pdf');
  await download.saveAs(path);
  expect(readFileSync(path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const report = pdfsig(path);
  expect(report).toContain('Signature is Valid.');
  expect(report).toContain('Total document signed');
});
