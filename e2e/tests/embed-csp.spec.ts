import { execFileSync } from 'node:child_process';
import { cspFor } from '../hosts/hosts-state.js';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createDocument, expect, productState, storedSubmission, test } from './fixtures.js';
import type { Page } from '@playwright/test';

/**
 * The script-tag build (`embed.js`, served by the Signet server) on a plain HTML page of another origin whose
 * Content-Security-Policy allows no inline script or style and no eval: the element shows a document and signs it;
 * `builder.js` on the same policy places a field in a draft and sends it.
 */
const embedDir = fileURLToPath(new URL('../../packages/embed/dist/script/', import.meta.url));
let host: Server;
let hostUrl: string;
let integrity: string;
let version: string;
let builderIntegrity: string;

// The page's own files (`'self'`): its stylesheet, which also tries to restyle the viewer, and a script that records
// the element's events and any CSP violation.
const HOST_CSS = 'signet-signing-viewer { height: 700px; } signet-builder { height: 720px; } .signet-toolbar { background: rgb(255, 0, 0); }';
const HOST_JS = `
window.signetEvents = [];
window.cspViolations = [];
for (const type of ['signet:ready', 'signet:field-change', 'signet:complete', 'signet:error', 'signet:change', 'signet:save']) {
  document.addEventListener(type, (event) => window.signetEvents.push({ type, composed: event.composed, target: event.target.tagName }));
}
document.addEventListener('securitypolicyviolation', (event) => window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));
`;

// One worker runs this file's tests in turn: its set-up rebuilds the embed's script folder, and two workers doing
// so at once would read a folder the other is emptying.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // The build the server serves, from the sources under test (a few seconds).
  execFileSync('pnpm', ['--filter', '@signet/embed', 'build'], { stdio: 'ignore' });
  ({ integrity, version } = JSON.parse(readFileSync(`${embedDir}embed.sri.json`, 'utf8')) as { integrity: string; version: string });
  builderIntegrity = (JSON.parse(readFileSync(`${embedDir}builder.sri.json`, 'utf8')) as { integrity: string }).integrity;
  const { apiUrl } = productState();
  host = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host');
    if (url.pathname === '/host.css') return void response.writeHead(200, { 'Content-Type': 'text/css' }).end(HOST_CSS);
    if (url.pathname === '/host.js') return void response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(HOST_JS);
    if (url.pathname !== '/' && url.pathname !== '/builder') return void response.writeHead(404).end();
    const attributes = `document-id="${url.searchParams.get('documentId')}" api-key="${url.searchParams.get('apiKey')}" base-url="${apiUrl}"`;
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': cspFor(apiUrl) });
    // `/builder`: the builder's own script and element, on the same policy.
    if (url.pathname === '/builder') {
      return void response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host page</title>
<link rel="stylesheet" href="/host.css">
<script src="/host.js"></script>
<script type="module" src="${apiUrl}/embed/${version}/builder.js" integrity="${builderIntegrity}" crossorigin="anonymous"></script>
</head><body><signet-builder ${attributes} allow-send></signet-builder></body></html>`);
    }
    response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host page</title>
<link rel="stylesheet" href="/host.css">
<script src="/host.js"></script>
<script type="module" src="${apiUrl}/embed/${version}/embed.js" integrity="${integrity}" crossorigin="anonymous"></script>
</head><body><signet-signing-viewer ${attributes}></signet-signing-viewer></body></html>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

/** Draws a stroke on the open signature dialog's pad and applies it. */
async function drawSignature(page: Page, field: string): Promise<void> {
  await page.getByRole('button', { name: field, exact: true }).click();
  const dialog = page.getByRole('dialog');
  const pad = dialog.locator('canvas');
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let step = 1; step <= 10; step += 1) await page.mouse.move(box.x + 20 + step * 20, box.y + box.height * (step % 2 ? 0.3 : 0.7));
  await page.mouse.up();
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toBeHidden();
}

test('a page with a strict CSP shows and signs a document with one <script> of embed.js', async ({ page }) => {
  const documentId = await createDocument(page);
  await page.goto(`${hostUrl}/?${new URLSearchParams({ documentId, apiKey: productState().pk })}`);
  const viewer = page.locator('signet-signing-viewer');
  await expect(viewer.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();
  await expect(viewer.getByRole('textbox', { name: 'Full legal name' })).toBeVisible();
  // Styled by its own sheet in the shadow root; the page's rule for the same class does not reach in.
  expect(await viewer.locator('.signet-toolbar').evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(255, 255, 255)');

  await viewer.getByLabel('Full legal name', { exact: true }).fill('Ada Lovelace');
  await drawSignature(page, 'Initials');
  await viewer.getByRole('checkbox', { name: /agree to the terms/ }).check();
  await drawSignature(page, 'Signature');
  await viewer.getByLabel('Date', { exact: true }).fill('2026-11-22');
  await viewer.getByRole('button', { name: /finish and submit/i }).click();
  await expect(viewer.getByText('Document signed')).toBeVisible();

  await expect.poll(() => storedSubmission(page, documentId)).not.toBeNull();
  const events = (await page.evaluate(() => (window as unknown as { signetEvents: Array<{ type: string }> }).signetEvents)).map((event) => event.type);
  expect(events).toContain('signet:ready');
  expect(events).toContain('signet:field-change');
  expect(events).toContain('signet:complete');
  expect(events).not.toContain('signet:error');
  // Scripts, styles, the worker, the signature images, the handwriting font (fetched as bytes: `connect-src`) and the
  // API calls all pass the policy.
  const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  expect(violations).toEqual([]);
});

test('a page with a strict CSP authors a draft with one <script> of builder.js', async ({ page }) => {
  const draft = await page.request.post('/demo-api/drafts', { multipart: { signers: '1' } });
  expect(draft.status()).toBe(201);
  const { documentId } = (await draft.json()) as { documentId: string };
  const { apiUrl, sk } = productState();
  const session = await page.request.post(`${apiUrl}/documents/${documentId}/builder-sessions`, {
    headers: { 'X-API-Key': sk },
    data: { allowSend: true, origins: [hostUrl] },
  });
  expect(session.status()).toBe(201);
  const { key } = ((await session.json()) as { data: { key: string } }).data;
  await page.goto(`${hostUrl}/builder?${new URLSearchParams({ documentId, apiKey: key })}`);
  const builder = page.locator('signet-builder');
  await expect(builder.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();

  await builder.locator('.signet-builder-palette').getByRole('button', { name: 'Signature', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(builder.getByText('All changes saved')).toBeVisible();
  await builder.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(builder.getByText('The document is ready to be signed.')).toBeVisible();

  const events = await page.evaluate(() => (window as unknown as { signetEvents: Array<{ type: string; target: string }> }).signetEvents);
  expect(events).toContainEqual({ type: 'signet:change', composed: true, target: 'SIGNET-BUILDER' });
  expect(events.map((event) => event.type)).toContain('signet:save');
  expect(events.map((event) => event.type)).not.toContain('signet:error');
  const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  expect(violations).toEqual([]);
});
