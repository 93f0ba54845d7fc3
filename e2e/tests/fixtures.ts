import { test as base, expect, type Locator, type Page } from '@playwright/test';
import type { SubmissionRecord } from '@signet/contract';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the running product wrote at start: its URLs and this run's demo keys. */
export interface ProductState {
  apiUrl: string;
  demoUrl: string;
  pk: string;
  sk: string;
}

export function productState(): ProductState {
  return JSON.parse(readFileSync(join(process.env.SIGNET_E2E_DIR!, 'state.json'), 'utf8')) as ProductState;
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Where a test writes a screenshot named `name`: `docs/screenshots/` (the docs' pictures) only when
 * SIGNET_UPDATE_SCREENSHOTS=1, so an ordinary run changes no tracked file; else `e2e/test-results/screenshots/`.
 * @example await viewer.screenshot({ path: screenshotPath('viewer-ar.png') })
 */
export function screenshotPath(name: string): string {
  const folder = process.env.SIGNET_UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : 'e2e/test-results/screenshots';
  return join(repoRoot, folder, name);
}

/** Runs the `signet` command line on the e2e store, as an operator would beside the running server. */
export function signetCli(...args: string[]): string {
  // The source through tsx, as `pnpm signet` ran it before it built the server first: a build here would rewrite
  // apps/server/dist/ under the Node suites' processes when both run at once (`pnpm test`).
  return execFileSync('pnpm', ['--silent', 'exec', 'tsx', 'apps/server/src/cli/main.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: `file:${join(process.env.SIGNET_E2E_DIR!, 'signet.db')}` },
    encoding: 'utf8',
  });
}

/** A fresh document (each test its own) created by the demo's backend with its sk key. */
export async function createDocument(page: Page, size: 'short' | 'long' = 'short'): Promise<string> {
  const response = await page.request.post(`/demo-api/documents?size=${size}`);
  expect(response.status()).toBe(201);
  return ((await response.json()) as { documentId: string }).documentId;
}

/**
 * The demo's one-page application form (a field of every type), created by its backend, opened in the demo page
 * with `query` (such as `{ locale: 'ar' }`) once page 1 is painted; its id.
 */
export async function openForm(page: Page, query: Record<string, string> = {}): Promise<string> {
  const response = await page.request.post('/demo-api/forms');
  expect(response.status()).toBe(201);
  const { documentId } = (await response.json()) as { documentId: string };
  await page.goto(`/?${new URLSearchParams({ documentId, ...query })}`);
  await expect(page.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();
  return documentId;
}

/** The stored submission of a document, read by the demo's backend (null while there is none). */
export async function storedSubmission(page: Page, documentId: string): Promise<SubmissionRecord | null> {
  const response = await page.request.get(`/demo-api/documents/${documentId}/submission`);
  return response.ok() ? ((await response.json()) as SubmissionRecord) : null;
}

/** Opens `documentId` in the demo page and waits until page 1 is painted with its fields. */
export async function openDocument(page: Page, documentId: string, query: Record<string, string> = {}): Promise<void> {
  await page.goto(`/?${new URLSearchParams({ documentId, ...query })}`);
  await expect(page.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Full legal name' })).toBeVisible();
}

/** Signs the signature or initials field named `field` (looked up in `scope`) through the dialog's Type tab. */
export async function signByTyping(page: Page, field: string, text: string, scope: Page | Locator = page): Promise<void> {
  await scope.getByRole('button', { name: field, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Type' }).click();
  await dialog.getByRole('textbox', { name: 'Your name' }).fill(text);
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toBeHidden();
}

/** Fills every required field of the sample agreement for `name`: the name, initials, terms, signature, date. */
export async function fillRequired(page: Page, name: string, date: string): Promise<void> {
  await page.getByLabel('Full legal name', { exact: true }).fill(name);
  const initials = name.split(' ').map((part) => part[0]).join('');
  await signByTyping(page, 'Initials', initials);
  await page.getByRole('checkbox', { name: /agree to the terms/ }).check();
  await signByTyping(page, 'Signature', name);
  await page.getByLabel('Date', { exact: true }).fill(date);
}

/**
 * What poppler's `pdfsig` says about the signatures of the PDF at `path`. It exits 0 even when a digest does not
 * match, so callers judge its words, not its status.
 */
export function pdfsig(path: string): string {
  const run = spawnSync('pdfsig', [path], { encoding: 'utf8' });
  if (run.error) throw run.error;
  return `${run.stdout}${run.stderr}`;
}

export const test = base;
export { expect };

/** A PNG data URL drawn on a canvas and encoded again by this browser, to compare with a canvas it shows. */
export async function drawnAsCanvas(dataUrl: string): Promise<string> {
  const bitmap = await createImageBitmap(await (await fetch(dataUrl)).blob());
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [bitmap.width, bitmap.height];
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  return canvas.toDataURL();
}
