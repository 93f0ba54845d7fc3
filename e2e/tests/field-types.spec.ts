import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openForm, signByTyping, storedSubmission, test } from './fixtures.js';

/*
 * The field types forms need in a real browser: the demo's application form has a field of every
 * type; the signer fills them in, is told what a value breaks before submitting (in words, under the field), and
 * the stored submission holds what the page showed.
 */


/** A 40 × 30 px PNG photo, drawn by the browser itself. */
async function photo(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [40, 30];
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#2f5bea';
    context.fillRect(0, 0, 40, 30);
    return canvas.toDataURL('image/png').split(',')[1]!;
  });
  return Buffer.from(base64, 'base64');
}

test('an application form: every field type filled in, a broken rule said in words before submitting, the values stored', async ({ page }) => {
  const documentId = await openForm(page);
  const viewer = page.locator('.signet-viewer');
  const said = (text: string) => viewer.locator('.signet-field-message', { hasText: text });
  const problemLine = viewer.locator('.signet-guidance-problem button');

  await viewer.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
  const email = viewer.getByRole('textbox', { name: 'Email' });
  await email.fill('ada@example');
  // Nothing is said while the signer types; leaving the field marks it, describes it, and the guidance bar says what
  // is wrong; that line takes the signer back, where it is said under the field too.
  await expect(problemLine).toHaveCount(0);
  await viewer.getByRole('textbox', { name: 'Phone' }).focus();
  await expect(problemLine).toHaveText('Email: Enter an email address, such as name@example.com');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/Enter an email address/);
  await expect(said('Enter an email address')).toBeHidden();
  await problemLine.click();
  await expect(email).toBeFocused();
  await expect(said('Enter an email address, such as name@example.com')).toBeVisible();
  await email.fill('ada@example.com');
  await expect(problemLine).toHaveCount(0);
  await expect(email).not.toHaveAttribute('aria-invalid', 'true');

  await viewer.getByRole('textbox', { name: 'Phone' }).fill('+44 20 7946 0958');
  const member = viewer.getByRole('textbox', { name: 'Member number (if any)' });
  await member.fill('ab12');
  await member.blur();
  // The document's own message for its pattern.
  await expect(problemLine).toHaveText('Member number (if any): Two capital letters, a hyphen and four digits, such as AB-1234');
  await member.fill('AB-1234');

  const guests = viewer.getByRole('textbox', { name: 'Guests' });
  await guests.fill('12');
  await guests.blur();
  await expect(problemLine).toHaveText('Guests: Enter 10 or less');
  await guests.hover();
  await expect(said('Enter 10 or less')).toBeVisible();
  await guests.fill('2');
  await expect(problemLine).toHaveCount(0);

  await viewer.getByRole('combobox', { name: 'Plan' }).selectOption('standard');
  const billing = viewer.getByRole('radiogroup', { name: 'Billing' });
  await billing.getByRole('radio', { name: 'Yearly' }).check();
  await viewer.getByRole('textbox', { name: 'Notes' }).fill('Vegetarian meals\nArriving late');

  await viewer.locator('.signet-photo-file').setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: await photo(page) });
  await expect(viewer.locator('.signet-field--image img, .signet-field--image canvas').first()).toBeVisible();
  await expect(viewer.locator('.signet-photo-button')).toHaveText('Replace image');

  await viewer.getByRole('checkbox', { name: /details above are correct/ }).check();
  await signByTyping(page, 'Signature', 'Ada Lovelace', viewer);
  await viewer.getByLabel('Date', { exact: true }).fill('2026-11-25');
  await expect(viewer.getByText('All required fields are complete')).toBeVisible();
  const axe = await new AxeBuilder({ page }).include('.signet-viewer').analyze();
  expect(axe.violations).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('form-filled.png') });

  await viewer.getByRole('button', { name: 'Finish and submit' }).click();
  await expect(page.getByRole('region', { name: 'Submission result' })).toContainText('Signed.');
  const stored = (await storedSubmission(page, documentId))!;
  const values = Object.fromEntries(stored.fields.map((field) => [field.id, field.value]));
  expect(values).toMatchObject({
    full_name: { type: 'text', content: 'Ada Lovelace' },
    email: { type: 'email', content: 'ada@example.com' },
    phone: { type: 'phone', content: '+44 20 7946 0958' },
    member_number: { type: 'text', content: 'AB-1234' },
    guests: { type: 'number', content: '2' },
    plan: { type: 'select', value: 'standard' },
    billing: { type: 'radio', value: 'yearly' },
    notes: { type: 'textarea', content: 'Vegetarian meals\nArriving late' },
    id_photo: { type: 'image', imageData: expect.stringMatching(/^data:image\/jpeg;base64,/) },
    confirm: { type: 'checkbox', checked: true },
    signed_date: { type: 'date', content: '2026-11-25' },
  });
});

test('a value the server would refuse is named before any request: the submission stays unsent', async ({ page }) => {
  const documentId = await openForm(page);
  const viewer = page.locator('.signet-viewer');
  const said = (text: string) => viewer.locator('.signet-field-message', { hasText: text });
  await viewer.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
  await viewer.getByRole('textbox', { name: 'Email' }).fill('not an email');
  await viewer.getByRole('textbox', { name: 'Guests' }).fill('1');
  await viewer.getByRole('combobox', { name: 'Plan' }).selectOption('basic');
  await viewer.getByRole('radiogroup', { name: 'Billing' }).getByRole('radio', { name: 'Monthly' }).check();
  await viewer.getByRole('checkbox', { name: /details above are correct/ }).check();
  await signByTyping(page, 'Signature', 'Ada Lovelace', viewer);
  await viewer.getByLabel('Date', { exact: true }).fill('2026-11-25');

  const submits: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/sdk/documents/submit')) submits.push(request.url());
  });
  await viewer.getByRole('button', { name: 'Finish and submit' }).click();
  const email = viewer.getByRole('textbox', { name: 'Email' });
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(said('Enter an email address, such as name@example.com')).toBeVisible();
  expect(submits).toEqual([]);
  expect(await storedSubmission(page, documentId)).toBeNull();
});
