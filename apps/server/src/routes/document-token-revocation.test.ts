import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SdkDocumentSchema, documentPreviewUrl } from '@signet/contract';
import { createDocument } from '../documents/create-document.js';
import { createApiKeyRecord } from '../documents/seed.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { sharedPdfPool } from '../pdf-worker/index.js';
import { sealRunner } from '../sealing/seal-kind.js';
import { createTestPki } from '../../test/sealing/signing/test-pki.js';
import type { DocumentRecord } from '../storage/types.js';
import { buildPayload, call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { twoInstances, type TwoInstances } from '../../test/support/two-instances.js';
import { revokeApiKey } from '../storage/queries/api-keys.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

/*
 * A document token lives no longer than the key that obtained it (docs/decisions.md): the file, the preview and the
 * signed copy answer 403 INSUFFICIENT_PERMISSIONS once that key is revoked or has expired — at once on the
 * instance that revoked it, within the read cache's 2 seconds on the others (and after `signet keys revoke`).
 */

/** The read cache's TTL (createReadCache): the documented delay of a revocation made elsewhere. */
const REVOCATION_DELAY_MS = 2000;

type App = Pick<TestApp, 'app'>;

/** The three URLs a key obtains for a sealed document, as paths on the app. */
async function urlsOf(on: App, documentId: string, key: string): Promise<string[]> {
  const res = await call(on, 'GET', `/sdk/documents/${documentId}`, { key });
  expect(res.status).toBe(200);
  const body = SdkDocumentSchema.parse(await res.json());
  const local = (url: string) => new URL(url).pathname + new URL(url).search;
  expect(body.signedDocumentUrl).toBeDefined();
  return [local(body.documentUrl), local(documentPreviewUrl(body.documentUrl)!), local(body.signedDocumentUrl!)];
}

/** The statuses of the URLs, and the refusals' reasons (each a 403 in the contract's envelope). */
async function answers(on: App, urls: string[]): Promise<Array<number | string>> {
  return Promise.all(
    urls.map(async (url) => {
      const res = await on.app.request(url);
      if (res.status !== 403) return res.status;
      const body = (await res.json()) as { success: boolean; error: { code: string; details: { reason: string } } };
      expect(body).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_PERMISSIONS' } });
      return body.error.details.reason;
    }),
  );
}

const GRANTED = [200, 200, 200];
const REVOKED = Array(3).fill('the API key that obtained the document token has been revoked');
const EXPIRED = Array(3).fill('the API key that obtained the document token has expired');
const INVALID = Array(3).fill('the document token is missing or invalid');

/**
 * Asks until the URLs are refused as `expected`; resolves with how long that took (throws after `limitMs`). The
 * tests allow the delay and 1 s more: the time the answers themselves take on a loaded machine.
 */
async function refusedWithin(on: App, urls: string[], expected: unknown[], limitMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    const got = await answers(on, urls);
    if (JSON.stringify(got) === JSON.stringify(expected)) return Date.now() - start;
    if (Date.now() - start > limitMs) throw new Error(`still ${JSON.stringify(got)} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const waitUntil = (iso: string) => new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(iso) - Date.now() + 20)));

describe.each(engines)('document tokens end with their key ($name)', (engine) => {
  let t: TestApp;
  let sk: string;
  /** Submitted and sealed: it has all three URLs. */
  let document: DocumentRecord;

  beforeAll(async () => {
    t = await createTestApp(engine);
    sk = (await t.createKey({ kind: 'sk' })).secret;
    document = await t.createDocument({ pages: 1 });
    const submitter = (await t.createKey()).secret;
    const submitted = await call(t, 'POST', '/sdk/documents/submit', { key: submitter, body: await buildPayload(document) });
    expect(submitted.status).toBe(201);
    expect(await t.sealDue()).toBe(1);
  }, 60_000);
  afterAll(() => t.close());

  it("a session key revoked through the API: its URLs are refused at once, another key's still work", async () => {
    const session = await t.createSession(document.id);
    const other = (await t.createKey()).secret;
    const urls = await urlsOf(t, document.id, session.secret);
    const otherUrls = await urlsOf(t, document.id, other);
    expect(await answers(t, urls)).toEqual(GRANTED);

    const revoked = await call(t, 'DELETE', `/documents/${document.id}/sessions/${session.id}`, { key: sk });
    expect(revoked.status).toBe(200);
    expect(await answers(t, urls)).toEqual(REVOKED);
    expect((await call(t, 'GET', `/sdk/documents/${document.id}`, { key: session.secret })).status).toBe(401);
    expect(await answers(t, otherUrls)).toEqual(GRANTED);
  });

  it('pk and sk keys revoked as `signet keys revoke` does: refused within the read cache\'s delay', async () => {
    for (const kind of ['pk', 'sk'] as const) {
      const key = await t.createKey({ kind });
      const urls = await urlsOf(t, document.id, key.secret);
      // Asked once before, so that this instance holds the key's state as a request of the page would.
      expect(await answers(t, urls)).toEqual(GRANTED);
      expect(await revokeApiKey(t.storage.db.query, key.id, new Date().toISOString())).toBe(true);
      expect(await refusedWithin(t, urls, REVOKED, REVOCATION_DELAY_MS + 1000)).toBeLessThanOrEqual(REVOCATION_DELAY_MS + 1000);
    }
  });

  it('pk, sk and session keys that expire: refused at once when their expiry passes', async () => {
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    const keys = [
      (await t.createKey({ kind: 'pk', expiresAt })).secret,
      (await t.createKey({ kind: 'sk', expiresAt })).secret,
      (await t.createSession(document.id, undefined, { expiresAt })).secret,
    ];
    const urls = await Promise.all(keys.map((key) => urlsOf(t, document.id, key)));
    for (const each of urls) expect(await answers(t, each)).toEqual(GRANTED);
    await waitUntil(expiresAt);
    for (const each of urls) expect(await answers(t, each)).toEqual(EXPIRED);
  });

  it("a token of key A with key B's id put in its place is invalid, whether B is usable or revoked", async () => {
    const a = await t.createKey();
    const b = await t.createKey();
    const revokedB = await t.createKey({ revokedAt: new Date().toISOString() });
    const urls = await urlsOf(t, document.id, a.secret);
    for (const other of [b.id, revokedB.id]) expect(await answers(t, urls.map((url) => url.replace(a.id, other)))).toEqual(INVALID);
    expect(await answers(t, urls)).toEqual(GRANTED);
  });

  it('a token of the form before key ids (<expiry>.<mac>) is refused, though its MAC is right', async () => {
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const mac = createHmac('sha256', t.secret).update(`${document.id}\n${document.version}\n${expires}`).digest('base64url');
    const old = `?token=${expires}.${mac}`;
    const paths = ['file', 'preview', 'signed.pdf'].map((tail) => `/sdk/documents/${document.id}/${tail}${old}`);
    expect(await answers(t, paths)).toEqual(INVALID);
  });

  it("a token naming a key of another organization, signed with the server's secret, is invalid", async () => {
    // Never issued by the server (it signs only for the key that asked, of the document's organization); checked
    // all the same, so that a token grants no more than its key could.
    const foreign = await ensureOrganization(t.storage.db.query, `other-${randomBytes(4).toString('hex')}`, 'Other');
    const stranger = await t.createKey({}, foreign.id);
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const text = `${document.id}\n${document.version}\n${expires}\n${stranger.id}`;
    const token = `${expires}.${stranger.id}.${createHmac('sha256', t.secret).update(text).digest('base64url')}`;
    expect(await answers(t, [`/sdk/documents/${document.id}/file?token=${token}`])).toEqual(INVALID.slice(0, 1));
  });
});

const withPostgres = engines.some((engine) => engine.name === 'postgres');

describe.runIf(withPostgres)('two instances on one PostgreSQL: a revocation on one reaches the other within the delay', () => {
  let two: TwoInstances;
  let storages: TwoInstances['storages'];
  let apps: TwoInstances['apps'];
  let organizationId: string;
  let sk: string;
  let document: DocumentRecord;

  beforeAll(async () => {
    two = await twoInstances();
    ({ storages, apps } = two);
    organizationId = (await ensureOrganization(storages[0].db.query, 'acme', 'Acme')).id;
    sk = (await createApiKeyRecord(storages[0], { organizationId, kind: 'sk' })).key;
    document = await createDocument(storages[0], {
      organizationId,
      bytes: await generateSamplePdf({ pages: 1 }),
      fields: sampleFields(1),
      maxPdfBytes: 10_000_000,
    });
    const { key } = await createApiKeyRecord(storages[0], { organizationId, kind: 'pk' });
    expect((await call(apps[0], 'POST', '/sdk/documents/submit', { key, body: await buildPayload(document) })).status).toBe(201);
    // Sealed by the real worker, as an instance's own worker would.
    const signing = (await createTestPki()).selfSigned;
    const worker = sealRunner({ storage: storages[0], pdfPool: sharedPdfPool(), logger: two.logger, config: two.config.sealing, signingKey: async () => signing });
    while (await worker.runOnce('seal'));
  }, 60_000);

  afterAll(() => two.close());

  it('a session revoked on the first: refused there at once, on the second within the delay', async () => {
    const session = await createApiKeyRecord(storages[0]!, {
      organizationId,
      kind: 'pk',
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      documentId: document.id,
    });
    const urls = await urlsOf(apps[0]!, document.id, session.key);
    // Both instances have served the URLs, so both hold the key's state.
    expect(await answers(apps[0]!, urls)).toEqual(GRANTED);
    expect(await answers(apps[1]!, urls)).toEqual(GRANTED);

    expect((await call(apps[0]!, 'DELETE', `/documents/${document.id}/sessions/${session.id}`, { key: sk })).status).toBe(200);
    expect(await answers(apps[0]!, urls)).toEqual(REVOKED);
    expect(await refusedWithin(apps[1]!, urls, REVOKED, REVOCATION_DELAY_MS + 1000)).toBeLessThanOrEqual(REVOCATION_DELAY_MS + 1000);
  });

  it('a key of the first instance expiring: refused on both at once', async () => {
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    const { key } = await createApiKeyRecord(storages[0]!, { organizationId, kind: 'pk', expiresAt });
    const urls = await urlsOf(apps[0]!, document.id, key);
    expect(await answers(apps[1]!, urls)).toEqual(GRANTED);
    await waitUntil(expiresAt);
    expect(await answers(apps[0]!, urls)).toEqual(EXPIRED);
    expect(await answers(apps[1]!, urls)).toEqual(EXPIRED);
  });
});
