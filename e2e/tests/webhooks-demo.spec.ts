import { createDocument, expect, fillRequired, openDocument, test } from './fixtures.js';

// The demo's backend registers itself as a webhook endpoint at start, verifies what Signet sends it, and
// the page lists the open document's events as they arrive.
test('signing in the demo shows the document’s webhook events as they arrive: completed, then sealed', async ({ page }) => {
  const documentId = await createDocument(page);
  await openDocument(page, documentId);
  const panel = page.getByRole('region', { name: 'Webhook events' });
  const events = panel.getByRole('listitem');
  await expect(events.filter({ hasText: 'document.viewed' })).toBeVisible();

  await fillRequired(page, 'Ada Lovelace', '2026-11-22');
  await page.getByRole('button', { name: 'Finish and submit' }).click();
  const submissionId = (await page.getByRole('region', { name: 'Submission result' }).locator('code').textContent())!;

  await expect(events.filter({ hasText: 'document.completed' })).toContainText(submissionId);
  const sealed = events.filter({ hasText: 'document.sealed' });
  await expect(sealed).toContainText(/SHA-256 [0-9a-f]{12}…/, { timeout: 30_000 });
  // One of each, oldest first, and only this document's.
  await expect(events.locator('.event-type')).toHaveText(['document.created', 'document.viewed', 'document.completed', 'document.sealed']);
  // Nothing usable only with the sk key reaches the page.
  await expect(panel).not.toContainText('signed.pdf');

  const answer = await page.request.get(`/demo-api/documents/${documentId}/events`);
  const received = ((await answer.json()) as { events: { type: string; receivedAt: string; data: { documentId: string } }[] }).events;
  expect(received.map((event) => event.type)).toEqual(['document.created', 'document.viewed', 'document.completed', 'document.sealed']);
  expect(received.every((event) => event.data.documentId === documentId)).toBe(true);
  const arrivals = received.map((event) => Date.parse(event.receivedAt));
  expect(arrivals).toEqual([...arrivals].sort((a, b) => a - b));
});

test('the demo’s webhook receiver refuses a request whose signature does not hold, and keeps nothing of it', async ({ page }) => {
  const documentId = await createDocument(page);
  const body = JSON.stringify({
    type: 'document.completed',
    timestamp: new Date().toISOString(),
    data: { documentId, submissionId: 'sub_forged', submittedAt: new Date().toISOString(), checksum: 'x' },
  });
  const answer = await page.request.post('/webhooks/signet', {
    headers: {
      'content-type': 'application/json',
      'webhook-id': 'msg_forged',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': 'v1,bm90IGEgc2lnbmF0dXJlIG9mIHRoaXMgYm9keQ==',
    },
    data: body,
  });
  expect(answer.status()).toBe(400);
  const events = (await (await page.request.get(`/demo-api/documents/${documentId}/events`)).json()) as { events: { type: string }[] };
  expect(events.events.map((event) => event.type)).not.toContain('document.completed');
});
