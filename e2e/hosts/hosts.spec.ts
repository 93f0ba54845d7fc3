import { expect, test, type APIRequestContext, type Page, type Response } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fillRequired } from '../tests/fixtures.js';
import { cspFor, hostsState, type HostsState } from './hosts-state.js';

/**
 * Signet as a host outside this repository gets it: packed tarballs installed with npm into scratch apps (see
 * global-setup.ts), built by each host's own tooling with no Signet-specific configuration, signing a document in
 * Chromium against a real Signet server.
 */

interface Watch {
  /** Every request for pdf.js's worker or a Caveat file, with its status (or failure). */
  assets: Array<{ url: string; status: number | string }>;
  /** Scripts of the page's workers. */
  workers: string[];
  /** Uncaught errors and console errors. */
  errors: string[];
}

const ASSET = /pdf\.worker|caveat/;

/** Records what the page loads and what goes wrong, from before its first script runs. */
async function watch(page: Page): Promise<Watch> {
  const seen: Watch = { assets: [], workers: [], errors: [] };
  await page.addInitScript(() => {
    const record = window as unknown as { hostEvents: string[]; cspViolations: string[] };
    record.hostEvents = [];
    record.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      record.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  page.on('response', (response) => {
    if (ASSET.test(response.url())) seen.assets.push({ url: response.url(), status: response.status() });
    // A page without an icon asks for /favicon.ico; every other failure counts.
    else if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) seen.errors.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    if (ASSET.test(request.url())) seen.assets.push({ url: request.url(), status: request.failure()?.errorText ?? 'failed' });
  });
  page.on('worker', (worker) => seen.workers.push(worker.url()));
  page.on('pageerror', (error) => seen.errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // Failed responses are counted above, by URL (the console does not say which).
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) seen.errors.push(`console: ${message.text().slice(0, 300)}`);
  });
  return seen;
}

/** Opens `documentId` on the host page at `origin` and waits for page 1 and its fields. */
async function open(page: Page, origin: string, documentId: string, query: Record<string, string> = {}): Promise<Response | null> {
  const { apiUrl, pk } = hostsState();
  const response = await page.goto(`${origin}/?${new URLSearchParams({ documentId, apiKey: pk, baseUrl: apiUrl, ...query })}`);
  await expect(page.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Full legal name' })).toBeVisible();
  return response;
}

/** Fills the fields (both signatures typed, in Caveat), submits, and waits for the completed state. */
async function sign(page: Page): Promise<void> {
  await fillRequired(page, 'Ada Lovelace', '2026-11-22');
  // The Type tab drew its signatures in Caveat itself, not the platform's cursive face.
  const caveat = await page.evaluate(async () => {
    await document.fonts.ready;
    const faces = [...document.fonts].filter((face) => face.family.replaceAll('"', '') === 'Signet Caveat');
    return {
      loaded: faces.some((face) => face.status === 'loaded'),
      check: document.fonts.check('48px "Signet Caveat"', 'Ada Lovelace'),
    };
  });
  expect(caveat).toEqual({ loaded: true, check: true });
  await page.getByRole('button', { name: /finish and submit/i }).click();
  await expect(page.getByText('Document signed')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { hostEvents: string[] }).hostEvents)).toEqual(['ready', 'complete']);
}

/** The submission the server stored for `documentId`, read with the sk key as the host's backend would. */
async function expectStored(request: APIRequestContext, documentId: string): Promise<void> {
  const { apiUrl, sk } = hostsState();
  const response = await request.get(`${apiUrl}/documents/${documentId}/submission`, { headers: { 'X-API-Key': sk } });
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as { data: { documentId: string; fields: Array<{ id: string; value: unknown }> } };
  expect(data.documentId).toBe(documentId);
  const values = Object.fromEntries(data.fields.map((field) => [field.id, field.value]));
  expect(values).toMatchObject({
    signer_name: { type: 'text', content: 'Ada Lovelace' },
    signer_initials: { type: 'initials', imageData: expect.stringMatching(/^data:image\/png;base64,/) },
    accept_terms: { type: 'checkbox', checked: true },
    signature: { type: 'signature', imageData: expect.stringMatching(/^data:image\/png;base64,/) },
    signed_date: { type: 'date', content: '2026-11-22' },
  });
}

/**
 * One pdf.js worker ran; its script (or, where the host's bundler wraps it, the worker itself) and Caveat's latin
 * file came from URLs matching `expected`; no request for either failed; nothing else went wrong on the page.
 */
function expectAssets(seen: Watch, expected: { worker: RegExp; font: RegExp }): void {
  expect(seen.workers).toHaveLength(1);
  expect(seen.assets.filter((asset) => asset.status !== 200 && asset.status !== 304)).toEqual([]);
  const urls = [...seen.workers, ...seen.assets.map((asset) => asset.url)];
  expect(urls).toEqual(expect.arrayContaining([expect.stringMatching(expected.worker), expect.stringMatching(expected.font)]));
  expect(seen.errors).toEqual([]);
}

function documentOf(name: keyof HostsState['documents']): string {
  return hostsState().documents[name];
}

// Tagged @registry: the registry test (playwright.registry.config.ts) runs it too, in a host whose Signet came by
// name from a registry rather than from tarballs.
test('Vite + React 19: the viewer from npm signs a document, its worker and font load with no configuration', { tag: '@registry' }, async ({ page, request }) => {
  const { hosts } = hostsState();
  const seen = await watch(page);
  await open(page, hosts.vite19, documentOf('vite19'));
  expect(await page.evaluate(() => document.documentElement.dataset.react)).toMatch(/^19\./);
  await sign(page);
  await expectStored(request, documentOf('vite19'));
  // Vite copied them into the host's own build (assets/, hashed names), from the viewer's new URL(…, import.meta.url).
  const origin = hosts.vite19.replaceAll('.', '\\.');
  expectAssets(seen, { worker: new RegExp(`^${origin}/assets/pdf\\.worker[^/]*\\.mjs$`), font: new RegExp(`^${origin}/assets/caveat-latin-400-normal[^/]*\\.woff2$`) });
});

test('Vite + React 19: a host overrides the worker and font URLs (configurePdfWorker, configureHandwritingFont)', async ({ page, request }) => {
  const { hosts } = hostsState();
  const seen = await watch(page);
  await open(page, hosts.vite19, documentOf('override'), { override: '1' });
  await sign(page);
  await expectStored(request, documentOf('override'));
  expectAssets(seen, { worker: new RegExp(`^${hosts.vite19}/custom/pdf\\.worker\\.min\\.mjs$`), font: new RegExp(`^${hosts.vite19}/custom/fonts/caveat-latin-400-normal\\.woff2$`) });
  // Only the host's copies were asked for, never the build's own.
  expect(seen.assets.filter((asset) => !asset.url.startsWith(`${hosts.vite19}/custom/`))).toEqual([]);
});

test('Vite + React 18: the same viewer signs a document on React 18', async ({ page, request }) => {
  const { hosts } = hostsState();
  const seen = await watch(page);
  await open(page, hosts.vite18, documentOf('vite18'));
  expect(await page.evaluate(() => document.documentElement.dataset.react)).toMatch(/^18\./);
  await sign(page);
  await expectStored(request, documentOf('vite18'));
  const origin = hosts.vite18.replaceAll('.', '\\.');
  expectAssets(seen, { worker: new RegExp(`^${origin}/assets/pdf\\.worker[^/]*\\.mjs$`), font: new RegExp(`^${origin}/assets/caveat-latin-400-normal[^/]*\\.woff2$`) });
});

test('plain HTML, no bundler: <signet-signing-viewer> from the server\'s /embed.js signs a document', async ({ page, request }) => {
  const { hosts, apiUrl } = hostsState();
  const seen = await watch(page);
  await open(page, hosts.html, documentOf('html'));
  await sign(page);
  await expectStored(request, documentOf('html'));
  // The script tag's build finds its worker and font beside itself on the Signet server.
  const api = apiUrl.replaceAll('.', '\\.');
  expectAssets(seen, { worker: new RegExp(`^${api}/embed/[^/]+/pdf\\.worker\\.min\\.mjs$`), font: new RegExp(`^${api}/embed/[^/]+/caveat-latin-400-normal\\.woff2$`) });
});

test('Next.js App Router: the server renders the page holding the viewer, and the browser signs in it', async ({ page, request }) => {
  const { hosts, apiUrl, pk, nextLog } = hostsState();
  const documentId = documentOf('next');
  // The server's own rendering of the page ("use client" components render on the server too).
  const rendered = await request.get(`${hosts.next}/?${new URLSearchParams({ documentId, apiKey: pk, baseUrl: apiUrl })}`);
  expect(rendered.status()).toBe(200);
  expect(await rendered.text()).toContain('class="signet-viewer"');

  const seen = await watch(page);
  await open(page, hosts.next, documentId);
  await sign(page);
  await expectStored(request, documentId);
  const origin = hosts.next.replaceAll('.', '\\.');
  // Turbopack bundles pdf.js's worker as a worker chunk of its own; the font is copied under static/media.
  expectAssets(seen, { worker: new RegExp(`^${origin}/_next/static/chunks/turbopack-worker-`), font: new RegExp(`^${origin}/_next/static/media/caveat-latin-400-normal[^/]*\\.woff2$`) });
  // `next start` logged no error while rendering (an error's line starts with ⨯).
  expect(readFileSync(nextLog, 'utf8')).not.toContain('⨯');
});

test('strict CSP: the Vite React 19 build shows and signs a document with no violation', async ({ page, request }) => {
  const { hosts } = hostsState();
  const seen = await watch(page);
  const response = await open(page, hosts.csp, documentOf('csp'));
  expect(response?.headers()['content-security-policy']).toBe(cspFor(hostsState().apiUrl));
  await sign(page);
  await expectStored(request, documentOf('csp'));
  const origin = hosts.csp.replaceAll('.', '\\.');
  expectAssets(seen, { worker: new RegExp(`^${origin}/assets/pdf\\.worker[^/]*\\.mjs$`), font: new RegExp(`^${origin}/assets/caveat-latin-400-normal[^/]*\\.woff2$`) });
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
});
