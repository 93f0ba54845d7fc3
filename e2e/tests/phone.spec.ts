import { createDocument, drawnAsCanvas, expect, openDocument, storedSubmission, test } from './fixtures.js';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 3 });

test('on a phone, the signature is drawn by touch', async ({ page }) => {
  const documentId = await createDocument(page);
  await openDocument(page, documentId);
  await page.getByRole('button', { name: 'Signature', exact: true }).tap();
  const dialog = page.getByRole('dialog');
  const pad = dialog.locator('canvas');
  await expect(pad).toBeVisible();
  const box = (await pad.boundingBox())!;

  // Real touch input through the DevTools protocol: a finger pressed, moved along a curve, lifted.
  const cdp = await page.context().newCDPSession(page);
  const finger = (type: 'mousePressed' | 'mouseMoved' | 'mouseReleased', x: number, y: number) =>
    cdp.send('Input.emulateTouchFromMouseEvent', {
      type,
      x: Math.round(box.x + box.width * x),
      y: Math.round(box.y + box.height * y),
      button: 'left',
      clickCount: 1,
    });
  await pad.evaluate((canvas) => {
    const seen: string[] = ((window as unknown as { pointerTypes: string[] }).pointerTypes = []);
    canvas.addEventListener('pointerdown', (event) => seen.push((event as PointerEvent).pointerType));
  });
  await finger('mousePressed', 0.1, 0.6);
  for (let step = 1; step <= 20; step++) {
    const t = step / 20;
    await finger('mouseMoved', 0.1 + 0.8 * t, 0.6 - 0.3 * Math.sin(t * Math.PI * 2));
  }
  await finger('mouseReleased', 0.9, 0.6);
  // The protocol answers once an event is queued, not handled: a busy page handles the touches a little later.
  await expect.poll(() => page.evaluate(() => (window as unknown as { pointerTypes: string[] }).pointerTypes)).toEqual(['touch']);

  await expect(dialog.getByRole('button', { name: 'Apply' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Apply' }).tap();
  await expect(dialog).toBeHidden();
  // The placed signature is drawn on a canvas (no data: image, for hosts whose CSP allows none).
  const image = page.getByRole('button', { name: 'Signature', exact: true }).locator('canvas');
  await expect(image).toBeVisible();
  const shown = await image.evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL());

  // The rest, by touch as well, then submit.
  await page.getByLabel('Full legal name', { exact: true }).fill('Mary Jackson');
  await page.getByRole('button', { name: 'Initials', exact: true }).tap();
  await dialog.getByRole('tab', { name: 'Type' }).tap();
  await dialog.getByRole('textbox', { name: 'Your name' }).fill('MJ');
  await dialog.getByRole('button', { name: 'Apply' }).tap();
  await page.getByRole('checkbox', { name: /agree to the terms/ }).tap();
  await page.getByLabel('Date', { exact: true }).fill('2026-11-22');
  await page.getByRole('button', { name: 'Finish and submit' }).tap();
  await expect(page.getByText('Document signed')).toBeVisible();
  const stored = await storedSubmission(page, documentId);
  // The stored PNG, drawn and encoded as the placed signature's canvas was, shows the same pixels.
  const value = stored?.fields.find((field) => field.id === 'signature')?.value as { type: string; imageData: string };
  expect(value.type).toBe('signature');
  expect(await page.evaluate(drawnAsCanvas, value.imageData)).toBe(shown);
  expect(stored?.renderContext.devicePixelRatio).toBe(3);
});
