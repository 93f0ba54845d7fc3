import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { createDocument, drawnAsCanvas, expect, openDocument, openForm, screenshotPath, storedSubmission, test } from './fixtures.js';

// On a phone, a tapped field is filled in the step panel at the bottom of the viewer, by touch.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 3 });

/** The open field's bottom edge is above the panel's top edge (and below the toolbar). */
async function fieldAbovePanel(field: Locator, panel: Locator) {
  await expect
    .poll(async () => {
      const [box, sheet] = [(await field.boundingBox())!, (await panel.boundingBox())!];
      return box.y > 0 && box.y + box.height <= sheet.y;
    })
    .toBe(true);
}

/** A finger drawing a wave across `target`, as real touch input through the DevTools protocol. */
async function drawByTouch(page: Page, target: Locator) {
  const box = (await target.boundingBox())!;
  const cdp = await page.context().newCDPSession(page);
  const finger = (type: 'mousePressed' | 'mouseMoved' | 'mouseReleased', x: number, y: number) =>
    cdp.send('Input.emulateTouchFromMouseEvent', {
      type,
      x: Math.round(box.x + box.width * x),
      y: Math.round(box.y + box.height * y),
      button: 'left',
      clickCount: 1,
    });
  await target.evaluate((canvas) => {
    const seen: string[] = ((window as unknown as { pointerTypes: string[] }).pointerTypes = []);
    canvas.addEventListener('pointerdown', (event) => seen.push((event as PointerEvent).pointerType));
  });
  await finger('mousePressed', 0.1, 0.6);
  for (let step = 1; step <= 20; step++) {
    const t = step / 20;
    // A frame apart, as a finger's moves are: a burst would be coalesced into a few points.
    await page.evaluate(() => new Promise(requestAnimationFrame));
    await finger('mouseMoved', 0.1 + 0.8 * t, 0.6 - 0.3 * Math.sin(t * Math.PI * 2));
  }
  await finger('mouseReleased', 0.9, 0.6);
  // The protocol answers once an event is queued, not handled: a busy page handles the touches a little later.
  await expect.poll(() => page.evaluate(() => (window as unknown as { pointerTypes: string[] }).pointerTypes)).toEqual(['touch']);
}

test('on a phone, fields are filled one at a time in the step panel, the signature drawn there by touch', async ({ page }) => {
  const documentId = await createDocument(page);
  await openDocument(page, documentId);
  const onPage = (fieldId: string) => page.locator(`.signet-pages [data-signet-field="${fieldId}"]`);
  const panel = page.getByRole('region', { name: /\d of \d/ });
  const next = () => panel.getByRole('button', { name: 'Next field' }).tap();

  // At fit-to-width the page's fields are about 14 px tall: the panel's control is the one to type into.
  expect((await onPage('signer_name').boundingBox())!.height).toBeLessThan(24);
  await onPage('signer_name').tap();
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Full legal name' })).toBeVisible();
  await expect(panel.getByText('1 of 6')).toBeVisible();
  const name = panel.getByRole('textbox', { name: 'Full legal name' });
  await expect(name).toBeFocused();
  const size = await name.evaluate((input) => ({ font: parseFloat(getComputedStyle(input).fontSize), height: input.getBoundingClientRect().height }));
  expect(size.font).toBeGreaterThanOrEqual(16);
  expect(size.height).toBeGreaterThanOrEqual(44);
  await page.keyboard.type('Mary Jackson');
  // One value: the page's field shows what the panel's took.
  await expect(onPage('signer_name')).toHaveValue('Mary Jackson');
  await fieldAbovePanel(onPage('signer_name'), panel);
  expect(await new AxeBuilder({ page }).include('.signet-viewer').analyze().then((results) => results.violations.map((v) => v.id))).toEqual([]);
  await page.locator('.signet-viewer').screenshot({ path: screenshotPath('phone-steps.png') });

  await next(); // Company: optional
  await next();
  await expect(panel.getByRole('heading', { name: 'Initials' })).toBeVisible();
  await panel.getByRole('button', { name: 'Type' }).tap();
  await expect(panel.getByRole('textbox', { name: 'Your name' })).toHaveValue('MJ');
  await panel.getByRole('button', { name: 'Apply' }).tap();
  await expect(onPage('signer_initials').locator('canvas')).toBeVisible();

  await next();
  await panel.getByRole('checkbox').tap();
  await expect(onPage('accept_terms')).toBeChecked();

  await next();
  await expect(panel.getByRole('heading', { name: 'Signature' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await fieldAbovePanel(onPage('signature'), panel);
  await drawByTouch(page, panel.locator('canvas'));
  await expect(panel.getByRole('button', { name: 'Apply' })).toBeEnabled();
  expect(await new AxeBuilder({ page }).include('.signet-viewer').analyze().then((results) => results.violations.map((v) => v.id))).toEqual([]);
  await page.locator('.signet-viewer').screenshot({ path: screenshotPath('phone-signature.png') });
  await panel.getByRole('button', { name: 'Apply' }).tap();
  // The placed signature is drawn on a canvas (no data: image, for hosts whose CSP allows none).
  const image = onPage('signature').locator('canvas');
  await expect(image).toBeVisible();
  const shown = await image.evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL());

  await next();
  await panel.getByLabel('Date', { exact: true }).fill('2026-11-22');
  await fieldAbovePanel(onPage('signed_date'), panel);
  await panel.getByRole('button', { name: 'Finish and submit' }).tap();
  await expect(page.getByText('Document signed')).toBeVisible();
  await expect(panel).toHaveCount(0);
  const stored = await storedSubmission(page, documentId);
  expect(stored?.fields.find((field) => field.id === 'signer_name')?.value).toEqual({ type: 'text', content: 'Mary Jackson' });
  expect(stored?.fields.find((field) => field.id === 'accept_terms')?.value).toEqual({ type: 'checkbox', checked: true });
  // The stored PNG, drawn and encoded as the placed signature's canvas was, shows the same pixels.
  const value = stored?.fields.find((field) => field.id === 'signature')?.value as { type: string; imageData: string };
  expect(value.type).toBe('signature');
  expect(await page.evaluate(drawnAsCanvas, value.imageData)).toBe(shown);
  expect(stored?.renderContext.devicePixelRatio).toBe(3);
});

test('on a phone, Done closes the panel and gives the field on the page the focus', async ({ page }) => {
  await openDocument(page, await createDocument(page));
  await page.getByRole('button', { name: 'Next field' }).tap();
  const panel = page.getByRole('region', { name: /\d of \d/ });
  await expect(panel.getByRole('heading', { name: 'Full legal name' })).toBeVisible();
  await panel.getByRole('button', { name: 'Done' }).tap();
  await expect(panel).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Full legal name' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Finish and submit' })).toBeVisible();
});

test('on a phone, the application form’s field types are filled in the step panel, a broken rule said there', async ({ page }) => {
  const documentId = await openForm(page);
  const panel = page.getByRole('region', { name: /\d+ of \d+/ });
  const next = () => panel.getByRole('button', { name: 'Next field' }).tap();
  const step = (label: string) => expect(panel.getByRole('heading', { name: label })).toBeVisible();

  await page.locator('.signet-pages [data-signet-field="full_name"]').tap();
  await step('Full name');
  await panel.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
  await next();
  await step('Email');
  const email = panel.getByRole('textbox', { name: 'Email' });
  await expect(email).toHaveAttribute('type', 'email');
  await email.fill('ada@example');
  await next();
  await step('Phone');
  await expect(panel.getByRole('textbox', { name: 'Phone' })).toHaveAttribute('inputmode', 'tel');
  await panel.getByRole('button', { name: 'Previous' }).tap();
  // Back at the email the signer left: what is wrong is said in the panel, in words.
  await step('Email');
  await expect(panel.getByText('Enter an email address, such as name@example.com')).toBeVisible();
  await email.fill('ada@example.com');
  await expect(panel.getByText('Enter an email address, such as name@example.com')).toHaveCount(0);
  await next();
  await next();
  await step('Member number (if any)');
  await next();
  await step('Guests');
  const guests = panel.getByRole('textbox', { name: 'Guests' });
  await expect(guests).toHaveAttribute('inputmode', 'decimal');
  expect(await guests.evaluate((input) => parseFloat(getComputedStyle(input).fontSize))).toBeGreaterThanOrEqual(16);
  await guests.fill('3');
  await next();
  await step('Plan');
  await panel.getByRole('combobox', { name: 'Plan' }).selectOption('premium');
  await next();
  await step('Billing');
  await panel.getByRole('radio', { name: 'Monthly' }).tap();
  await next();
  await step('Notes');
  await panel.getByRole('textbox', { name: 'Notes' }).fill('Line one\nLine two');
  await next();
  await step('Photo of your ID');
  await next();
  await step('I confirm that the details above are correct');
  await panel.getByRole('checkbox').tap();
  await page.screenshot({ path: test.info().outputPath('phone-form.png') });

  // Every value is the page's too: one state.
  await expect(page.locator('.signet-pages [data-signet-field="plan"]')).toHaveValue('premium');
  await expect(page.locator('.signet-pages [data-signet-field="notes"]')).toHaveValue('Line one\nLine two');
  await expect(page.locator('.signet-pages .signet-field--radio input[value="monthly"]')).toBeChecked();
  const axe = await new AxeBuilder({ page }).include('.signet-viewer').analyze();
  expect(axe.violations).toEqual([]);
  expect(await storedSubmission(page, documentId)).toBeNull();
});
