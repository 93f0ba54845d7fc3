import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldDefinition } from '@signet/contract';
import { newId } from '../ids.js';
import { openStorage } from './index.js';
import { MIGRATIONS } from './migrations.js';
import { CHUNK_SIZE } from './schema.js';
import { TEST_DATABASE_URL, storageEngines } from '../../test/storage/test-engines.js';
import {
  IMPLICIT_SIGNER,
  type ApiKeyRecord,
  type DocumentRecord,
  type IdempotencyScope,
  type Organization,
  type Storage,
  type StoredSubmission,
} from './types.js';
import { storeDocument } from '../documents/create-document.js';
import { findApiKeyByHash, findApiKeyById, insertApiKey, revokeApiKey } from './queries/api-keys.js';
import { findDocumentPreview, insertDocumentPreview, readDocumentContent } from './queries/document-files.js';
import { findDocument, listDocuments } from './queries/documents.js';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from './queries/idempotency.js';
import { ensureOrganization, findOrganizationBySlug } from './queries/organizations.js';
import { findSubmissionForDocument } from './queries/submissions.js';
import { recordSubmission } from '../submissions/record-submission.js';

const engines = await storageEngines();

const box = { x: 0.1, y: 0.1, width: 0.3, height: 0.05 };
const FIELDS: FieldDefinition[] = [
  { ...box, id: 'name', type: 'text', page: 1, required: true, editable: true, label: 'Name', placeholder: 'Jane' },
  {
    ...box,
    id: 'company',
    type: 'text',
    page: 1,
    required: false,
    editable: false,
    label: 'Company',
    value: { type: 'text', content: 'Acme Inc.' },
  },
  { ...box, id: 'sig', type: 'signature', page: 2, y: 0.8, required: true, editable: true, label: 'Signature' },
];

const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const at = (offsetMs: number) => new Date(T0 + offsetMs).toISOString();

function apiKey(organization: Organization, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: newId('key'),
    organizationId: organization.id,
    kind: 'sk',
    hash: createHash('sha256').update(randomBytes(16)).digest('hex'),
    displayPrefix: 'sk_AbCd',
    scopes: ['documents:read', 'documents:write'],
    expiresAt: null,
    revokedAt: null,
    allowedOrigins: [],
    rateLimit: 600,
    createdAt: at(0),
    ...overrides,
  };
}

async function createDocument(
  storage: Storage,
  organization: Organization,
  createdAt = at(0),
  content: Uint8Array = new TextEncoder().encode('%PDF-1.7 tiny'),
  id = newId('doc'),
): Promise<DocumentRecord> {
  return storeDocument(storage,
    {
      id,
      organizationId: organization.id,
      filename: 'contract.pdf',
      mimeType: 'application/pdf',
      pageCount: 2,
      fileSize: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      createdAt,
      fields: FIELDS,
    },
    content,
  );
}

function submissionFor(document: DocumentRecord, receivedAt = at(60_000)): StoredSubmission {
  const id = newId('sub');
  return {
    id,
    documentId: document.id,
    signerId: IMPLICIT_SIGNER.id,
    organizationId: document.organizationId,
    keyId: newId('key'),
    checksum: randomBytes(32).toString('hex'),
    payload: JSON.stringify({ documentId: document.id, fields: [] }),
    result: { success: true, submissionId: id, documentId: document.id, timestamp: receivedAt, message: 'Signed' },
    clientIp: '203.0.113.7',
    userAgent: 'vitest',
    receivedAt,
  };
}

const CLAIM = { expiresAfterMs: 24 * 3600_000, staleAfterMs: 60_000 };
const claimAt = (offsetMs: number) => ({ ...CLAIM, now: new Date(T0 + offsetMs) });

describe.each(engines)('$name storage', (engine) => {
  let storage: Storage;
  let org: Organization;

  beforeEach(async () => {
    storage = await engine.open();
    org = await ensureOrganization(storage.db.query, 'acme', 'Acme Inc.');
  });
  afterEach(async () => {
    await storage.close();
  });

  describe('migrations and lifecycle', () => {
    it('reports its engine', () => {
      expect(storage.engine).toBe(engine.name);
    });

    it('migrates again without error or loss', async () => {
      const document = await createDocument(storage, org);
      await storage.migrate();
      await storage.migrate();
      expect(await findDocument(storage.db.query, document.id)).toEqual(document);
    });

    it('closes idempotently', async () => {
      await storage.close();
      await storage.close();
    });
  });

  describe('organizations', () => {
    it('creates an organization once and returns it afterwards, whatever the name', async () => {
      expect(org).toMatchObject({ slug: 'acme', name: 'Acme Inc.' });
      expect(org.id).toMatch(/^org_[A-Za-z0-9]{20,}$/);
      expect(new Date(org.createdAt).toISOString()).toBe(org.createdAt);
      expect(await ensureOrganization(storage.db.query, 'acme', 'Another name')).toEqual(org);
      expect(await findOrganizationBySlug(storage.db.query, 'acme')).toEqual(org);
    });

    it('returns null for an unknown slug', async () => {
      expect(await findOrganizationBySlug(storage.db.query, 'nobody')).toBeNull();
    });

    it('survives concurrent creation of the same organization', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, () => ensureOrganization(storage.db.query, 'globex', 'Globex')),
      );
      expect(new Set(results.map((result) => result.id)).size).toBe(1);
      expect(results[0]!.name).toBe('Globex');
    });
  });

  describe('API keys', () => {
    it('finds a key by its hash, with its organization, every member round-tripped', async () => {
      const key = apiKey(org, {
        kind: 'pk',
        scopes: ['documents:read', 'documents:submit'],
        expiresAt: at(86_400_000),
        allowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
        rateLimit: 42,
        createdAt: '2025-03-01T10:00:00.123Z',
      });
      await insertApiKey(storage.db.query, key);
      expect(await findApiKeyByHash(storage.db.query, key.hash)).toEqual({ ...key, organization: org });
    });

    it('finds a key by its id, as by its hash, revoked or not; null for an unknown id', async () => {
      const key = apiKey(org, { kind: 'sk', expiresAt: at(86_400_000) });
      await insertApiKey(storage.db.query, key);
      expect(await findApiKeyById(storage.db.query, key.id)).toEqual({ ...key, organization: org });
      await revokeApiKey(storage.db.query, key.id, at(1000));
      expect(await findApiKeyById(storage.db.query, key.id)).toEqual({ ...key, revokedAt: at(1000), organization: org });
      expect(await findApiKeyById(storage.db.query, newId('key'))).toBeNull();
    });

    it('returns null for an unknown hash', async () => {
      await insertApiKey(storage.db.query, apiKey(org));
      expect(await findApiKeyByHash(storage.db.query, '0'.repeat(64))).toBeNull();
    });

    it('rejects a second key with the same hash', async () => {
      const key = apiKey(org);
      await insertApiKey(storage.db.query, key);
      await expect(insertApiKey(storage.db.query, { ...key, id: newId('key') })).rejects.toThrow();
    });

    it('revokes a key once, keeping the first revocation time', async () => {
      const key = apiKey(org);
      await insertApiKey(storage.db.query, key);
      expect(await revokeApiKey(storage.db.query, key.id, at(1000))).toBe(true);
      expect(await revokeApiKey(storage.db.query, key.id, at(2000))).toBe(true);
      expect((await findApiKeyByHash(storage.db.query, key.hash))?.revokedAt).toBe(at(1000));
    });

    it('does not revoke an unknown key', async () => {
      expect(await revokeApiKey(storage.db.query, newId('key'), at(1000))).toBe(false);
    });
  });

  describe('documents', () => {
    it('creates a pending document at version 1 and reads it back', async () => {
      const document = await createDocument(storage, org, '2025-03-01T10:00:00.007Z');
      expect(document).toMatchObject({ status: 'pending', version: 1, updatedAt: '2025-03-01T10:00:00.007Z' });
      expect(await findDocument(storage.db.query, document.id)).toEqual(document);
      expect(document.fields).toEqual(FIELDS);
    });

    it('returns null for an unknown document', async () => {
      expect(await findDocument(storage.db.query, newId('doc'))).toBeNull();
    });

    it('refuses a fileSize that differs from the content', async () => {
      const content = new Uint8Array(10);
      const document = {
        id: newId('doc'),
        organizationId: org.id,
        filename: 'a.pdf',
        mimeType: 'application/pdf',
        pageCount: 1,
        fileSize: 11,
        sha256: '',
        createdAt: at(0),
        fields: [],
      };
      await expect(storeDocument(storage, document, content)).rejects.toThrow(/fileSize/);
      expect(await findDocument(storage.db.query, document.id)).toBeNull();
    });

    it('reads ranges across chunk boundaries', async () => {
      const content = randomBytes(700 * 1024);
      const document = await createDocument(storage, org, at(0), content);
      // Compared as hex: vitest's deep equality walks a 700 KiB array element by element (seconds).
      const read = async (start: number, end: number) =>
        Buffer.from(await readDocumentContent(storage.db.query, document.id, start, end)).toString('hex');
      const bytes = (start: number, end: number) => content.subarray(start, end + 1).toString('hex');
      const last = content.length - 1;

      expect(await read(0, 0)).toBe(bytes(0, 0));
      expect(await read(CHUNK_SIZE - 1, CHUNK_SIZE)).toBe(bytes(CHUNK_SIZE - 1, CHUNK_SIZE));
      expect(await read(last, last)).toBe(bytes(last, last));
      expect(await read(CHUNK_SIZE, 2 * CHUNK_SIZE - 1)).toBe(bytes(CHUNK_SIZE, 2 * CHUNK_SIZE - 1));
      expect(await read(1000, 2 * CHUNK_SIZE + 10)).toBe(bytes(1000, 2 * CHUNK_SIZE + 10));
      expect(await read(0, last)).toBe(bytes(0, last));
    });

    it('reads nothing from an unknown document', async () => {
      expect((await readDocumentContent(storage.db.query, newId('doc'), 0, 10)).length).toBe(0);
    });
  });

  describe('document previews', () => {
    const preview = (content = randomBytes(3000)) => ({ mediaType: 'image/webp', width: 1224, height: 1584, content });
    const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

    it('stores a preview and reads it back, every member round-tripped; null before, and for an unknown document', async () => {
      const document = await createDocument(storage, org);
      expect(await findDocumentPreview(storage.db.query, document.id)).toBeNull();
      expect(await findDocumentPreview(storage.db.query, newId('doc'))).toBeNull();
      const stored = preview();
      await insertDocumentPreview(storage.db.query, document.id, stored);
      const read = await findDocumentPreview(storage.db.query, document.id);
      expect(read).toMatchObject({ mediaType: 'image/webp', width: 1224, height: 1584 });
      expect(hex(read!.content)).toBe(hex(stored.content));
    });

    it('keeps the first preview when others race to store theirs', async () => {
      const document = await createDocument(storage, org);
      const first = preview();
      await insertDocumentPreview(storage.db.query, document.id, first);
      await Promise.all(Array.from({ length: 5 }, () => insertDocumentPreview(storage.db.query, document.id, preview())));
      expect(hex((await findDocumentPreview(storage.db.query, document.id))!.content)).toBe(hex(first.content));
    });

    it('keeps an empty preview, the mark of a PDF that cannot be drawn', async () => {
      const document = await createDocument(storage, org);
      const mark = { mediaType: 'none', width: 0, height: 0, content: new Uint8Array() };
      await insertDocumentPreview(storage.db.query, document.id, mark);
      const read = await findDocumentPreview(storage.db.query, document.id);
      expect(read).toMatchObject({ mediaType: 'none', width: 0, height: 0 });
      expect(read!.content).toBeInstanceOf(Uint8Array);
      expect(read!.content.length).toBe(0);
    });

    it('refuses a preview of an unknown document', async () => {
      await expect(insertDocumentPreview(storage.db.query, newId('doc'), preview())).rejects.toThrow();
    });
  });

  describe('listing documents', () => {
    it('lists newest first, ties by id descending, one organization only', async () => {
      const other = await ensureOrganization(storage.db.query, 'other', 'Other');
      await createDocument(storage, other, at(5000));
      const ids = ['doc_AAAAAAAAAAAAAAAAAAAAAAAa', 'doc_AAAAAAAAAAAAAAAAAAAAAAAB', 'doc_AAAAAAAAAAAAAAAAAAAAAAA1'];
      for (const id of ids) await createDocument(storage, org, at(1000), undefined, id);
      const newest = await createDocument(storage, org, at(2000));
      const oldest = await createDocument(storage, org, at(0));

      const listed = await listDocuments(storage.db.query, org.id, { limit: 10 });
      // Bytewise order: digits < upper case < lower case, on both engines.
      expect(listed.map((document) => document.id)).toEqual([newest.id, ids[0], ids[1], ids[2], oldest.id]);
      expect(listed[0]).toEqual(newest);
    });

    it('pages strictly after the cursor, ties included', async () => {
      const ids = Array.from({ length: 7 }, (_, index) => `doc_AAAAAAAAAAAAAAAAAAAAAAA${index}`);
      for (const id of ids) await createDocument(storage, org, at(1000), undefined, id);
      const seen: string[] = [];
      let page = await listDocuments(storage.db.query, org.id, { limit: 3 });
      while (page.length > 0) {
        seen.push(...page.map((document) => document.id));
        const last = page.at(-1)!;
        page = await listDocuments(storage.db.query, org.id, { limit: 3, after: { createdAt: last.createdAt, id: last.id } });
      }
      expect(seen).toEqual([...ids].reverse());
    });

    it('neither repeats nor skips an item when documents are created between page reads', async () => {
      const original: string[] = [];
      for (let index = 0; index < 45; index++) {
        // Groups of three share a creation time, so that ties cross page boundaries.
        original.push((await createDocument(storage, org, at(Math.floor(index / 3) * 1000))).id);
      }
      const seen: string[] = [];
      let page = await listDocuments(storage.db.query, org.id, { limit: 20 });
      seen.push(...page.map((document) => document.id));
      for (let index = 0; index < 10; index++) await createDocument(storage, org, at(100_000 + index));
      while (page.length === 20) {
        const last = page.at(-1)!;
        page = await listDocuments(storage.db.query, org.id, { limit: 20, after: { createdAt: last.createdAt, id: last.id } });
        seen.push(...page.map((document) => document.id));
      }
      expect(seen).toHaveLength(45);
      expect(new Set(seen)).toEqual(new Set(original));
    });

    it('lists nothing for an unknown organization', async () => {
      await createDocument(storage, org);
      expect(await listDocuments(storage.db.query, newId('org'), { limit: 20 })).toEqual([]);
    });
  });

  describe('submissions', () => {
    it('records many concurrent submissions, and a failing one fails alone, leaving its document pending', async () => {
      const documents = await Promise.all(Array.from({ length: 20 }, (_, i) => createDocument(storage, org, at(i))));
      const submissions = documents.map((document) => submissionFor(document));
      // The last reuses the first one's id: its INSERT breaks the primary key.
      const clash = { ...submissions[19]!, id: submissions[0]!.id };
      const outcomes = await Promise.allSettled([...submissions.slice(0, 19), clash].map((s) => recordSubmission(storage, s)));
      expect(outcomes.slice(0, 19).every((o) => o.status === 'fulfilled' && o.value.created)).toBe(true);
      expect(outcomes[19]!.status).toBe('rejected');
      for (const document of documents.slice(0, 19)) expect((await findDocument(storage.db.query, document.id))?.status).toBe('completed');
      expect((await findDocument(storage.db.query, documents[19]!.id))?.status).toBe('pending');
      expect(await findSubmissionForDocument(storage.db.query, documents[19]!.id)).toBeNull();
    });

    it('records a submission and completes the document in one step', async () => {
      const document = await createDocument(storage, org);
      const submission = submissionFor(document);
      expect(await recordSubmission(storage, submission)).toEqual({ created: true, submission });
      expect(await findSubmissionForDocument(storage.db.query, document.id)).toEqual(submission);
      expect(await findDocument(storage.db.query, document.id)).toEqual({
        ...document,
        status: 'completed',
        updatedAt: submission.receivedAt,
      });
    });

    it('returns the existing submission for a completed document', async () => {
      const document = await createDocument(storage, org);
      const first = submissionFor(document);
      await recordSubmission(storage, first);
      const second = submissionFor(document, at(120_000));
      expect(await recordSubmission(storage, second)).toEqual({ created: false, existing: first });
      expect((await findDocument(storage.db.query, document.id))?.updatedAt).toBe(first.receivedAt);
    });

    it('keeps null client details', async () => {
      const document = await createDocument(storage, org);
      const submission = { ...submissionFor(document), clientIp: null, userAgent: null };
      await recordSubmission(storage, submission);
      expect(await findSubmissionForDocument(storage.db.query, document.id)).toEqual(submission);
    });

    it('returns null for a document without a submission', async () => {
      const document = await createDocument(storage, org);
      expect(await findSubmissionForDocument(storage.db.query, document.id)).toBeNull();
      expect(await findSubmissionForDocument(storage.db.query, newId('doc'))).toBeNull();
    });

    it('refuses a submission for an unknown document', async () => {
      const document = await createDocument(storage, org);
      const orphan = { ...submissionFor(document), documentId: newId('doc') };
      await expect(recordSubmission(storage, orphan)).rejects.toThrow();
    });

    it('creates exactly one submission out of concurrent ones', async () => {
      const document = await createDocument(storage, org);
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, index) => recordSubmission(storage, submissionFor(document, at(60_000 + index)))),
      );
      const created = outcomes.filter((outcome) => outcome.created);
      expect(created).toHaveLength(1);
      const winner = created[0]!.submission;
      for (const outcome of outcomes) {
        if (!outcome.created) expect(outcome.existing).toEqual(winner);
      }
      expect(await findSubmissionForDocument(storage.db.query, document.id)).toEqual(winner);
      const completed = await findDocument(storage.db.query, document.id);
      expect(completed).toMatchObject({ status: 'completed', updatedAt: winner.receivedAt });
    });

    it('completes the idempotency claim with the 201 result in the same step', async () => {
      const document = await createDocument(storage, org);
      const scope = { organizationId: org.id, key: 'submit-1' };
      expect(await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0))).toEqual({ state: 'claimed' });
      const submission = submissionFor(document);
      await recordSubmission(storage, submission, scope);
      expect(await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(1000))).toEqual({
        state: 'completed',
        status: 201,
        body: JSON.stringify(submission.result),
      });
    });

    it('leaves the idempotency claim alone when the document was already completed', async () => {
      const document = await createDocument(storage, org);
      await recordSubmission(storage, submissionFor(document));
      const scope = { organizationId: org.id, key: 'submit-2' };
      await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0));
      expect((await recordSubmission(storage, submissionFor(document), scope)).created).toBe(false);
      expect(await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(1000))).toEqual({ state: 'in_flight' });
    });
  });

  describe('idempotency keys', () => {
    let scope: IdempotencyScope;
    beforeEach(() => {
      scope = { organizationId: org.id, key: 'key-1' };
    });

    it('claims a new key, then reports it in flight', async () => {
      expect(await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0))).toEqual({ state: 'claimed' });
      expect(await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(1000))).toEqual({ state: 'in_flight' });
    });

    it('reports a different body as a mismatch', async () => {
      await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0));
      expect(await claimIdempotencyKey(storage.db, scope, 'other', claimAt(1000))).toEqual({ state: 'mismatch' });
      await completeIdempotencyKey(storage.db.query, scope, 201, '{}');
      expect(await claimIdempotencyKey(storage.db, scope, 'other', claimAt(2000))).toEqual({ state: 'mismatch' });
    });

    it('replays a completed response', async () => {
      await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0));
      await completeIdempotencyKey(storage.db.query, scope, 422, '{"error":{"code":"VALIDATION_ERROR"}}');
      expect(await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(1000))).toEqual({
        state: 'completed',
        status: 422,
        body: '{"error":{"code":"VALIDATION_ERROR"}}',
      });
    });

    it('keeps keys apart by organization', async () => {
      const other = await ensureOrganization(storage.db.query, 'other', 'Other');
      await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0));
      expect(await claimIdempotencyKey(storage.db, { ...scope, organizationId: other.id }, 'x', claimAt(0))).toEqual({
        state: 'claimed',
      });
    });

    it('lets a released claim be claimed again, but never releases a completed one', async () => {
      await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0));
      await releaseIdempotencyKey(storage.db.query, scope);
      expect(await claimIdempotencyKey(storage.db, scope, 'other', claimAt(1000))).toEqual({ state: 'claimed' });
      await completeIdempotencyKey(storage.db.query, scope, 201, 'body');
      await releaseIdempotencyKey(storage.db.query, scope);
      expect(await claimIdempotencyKey(storage.db, scope, 'other', claimAt(2000))).toEqual({
        state: 'completed',
        status: 201,
        body: 'body',
      });
    });

    it('takes over a stale in-flight claim', async () => {
      await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0));
      const claim = async (offsetMs: number) =>
        (await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(offsetMs))).state;
      expect(await claim(CLAIM.staleAfterMs)).toBe('in_flight');
      expect(await claim(CLAIM.staleAfterMs + 1)).toBe('claimed');
      // The takeover restarts the clock.
      expect(await claim(CLAIM.staleAfterMs + 2)).toBe('in_flight');
    });

    it('treats an expired key as absent, whatever it held', async () => {
      await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0));
      await completeIdempotencyKey(storage.db.query, scope, 201, 'old');
      expect(await claimIdempotencyKey(storage.db, scope, 'new', claimAt(CLAIM.expiresAfterMs + 1))).toEqual({
        state: 'claimed',
      });
      expect(await claimIdempotencyKey(storage.db, scope, 'new', claimAt(CLAIM.expiresAfterMs + 2))).toEqual({
        state: 'in_flight',
      });
    });

    it('gives exactly one claim to concurrent requests', async () => {
      const claims = await Promise.all(
        Array.from({ length: 10 }, () => claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0))),
      );
      expect(claims.filter((claim) => claim.state === 'claimed')).toHaveLength(1);
      expect(claims.filter((claim) => claim.state === 'in_flight')).toHaveLength(9);
    });

    it('gives exactly one takeover of a stale claim to concurrent requests', async () => {
      await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0));
      const later = claimAt(CLAIM.staleAfterMs + 1000);
      const claims = await Promise.all(
        Array.from({ length: 10 }, () => claimIdempotencyKey(storage.db, scope, 'fp', later)),
      );
      expect(claims.filter((claim) => claim.state === 'claimed')).toHaveLength(1);
    });

    it('gives exactly one claim when concurrent requests race a release', async () => {
      await claimIdempotencyKey(storage.db, scope, 'fp', claimAt(0));
      const [, ...claims] = await Promise.all([
        releaseIdempotencyKey(storage.db.query, scope),
        ...Array.from({ length: 10 }, () => claimIdempotencyKey(storage.db, scope, 'fp', claimAt(1000))),
      ]);
      expect(claims.filter((claim) => claim.state === 'claimed').length).toBeLessThanOrEqual(1);
      expect(claims.every((claim) => claim.state === 'claimed' || claim.state === 'in_flight')).toBe(true);
    });
  });
});

describe('openStorage', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'signet-open-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens an embedded database in the data directory when no URL is set, creating it', async () => {
    const dataDir = join(dir, 'nested', '.signet');
    const storage = await openStorage(undefined, { dataDir });
    try {
      expect(storage.engine).toBe('sqlite');
      expect(existsSync(join(dataDir, 'signet.db'))).toBe(true);
      await ensureOrganization(storage.db.query, 'acme', 'Acme');
    } finally {
      await storage.close();
    }
    const reopened = await openStorage(undefined, { dataDir });
    try {
      expect(await findOrganizationBySlug(reopened.db.query, 'acme')).not.toBeNull();
    } finally {
      await reopened.close();
    }
  });

  it('opens file: URLs and in-memory databases', async () => {
    for (const url of [`file:${join(dir, 'a', 'b.db')}`, `file://${join(dir, 'c.db')}`, 'file::memory:', ':memory:']) {
      const storage = await openStorage(url);
      try {
        expect(await ensureOrganization(storage.db.query, 'acme', 'Acme')).toMatchObject({ slug: 'acme' });
      } finally {
        await storage.close();
      }
    }
    expect(existsSync(join(dir, 'a', 'b.db'))).toBe(true);
    expect(existsSync(join(dir, 'c.db'))).toBe(true);
  });

  it('rejects an unsupported URL in one clear line, without its password', async () => {
    await expect(openStorage('mysql://root:hunter2@db/signet')).rejects.toThrow(
      'Unsupported DATABASE_URL "mysql://root:***@db/signet": use file:<path> for SQLite or postgres://… for ' +
        'PostgreSQL',
    );
  });

  it('rejects an invalid PostgreSQL schema name', async () => {
    await expect(openStorage('postgres://localhost/x', { pgSchema: 'Robert"; DROP' })).rejects.toThrow(/schema name/);
  });
});

const withPostgres = engines.some((engine) => engine.name === 'postgres');

describe.skipIf(!withPostgres)('PostgreSQL, several instances on one schema', () => {
  it('migrate safely when they start at once on a new schema', async () => {
    const schema = `t_${randomBytes(8).toString('hex')}`;
    const instances = await Promise.all(
      Array.from({ length: 5 }, () => openStorage(TEST_DATABASE_URL, { pgSchema: schema })),
    );
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
      expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
      const [first, second] = instances;
      const organization = await ensureOrganization(first!.db.query, 'acme', 'Acme');
      expect(await findOrganizationBySlug(second!.db.query, 'acme')).toEqual(organization);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });

  it('create exactly one submission when they race on one document', async () => {
    const schema = `t_${randomBytes(8).toString('hex')}`;
    const instances = await Promise.all(
      Array.from({ length: 3 }, () => openStorage(TEST_DATABASE_URL, { pgSchema: schema })),
    );
    try {
      const organization = await ensureOrganization(instances[0]!.db.query, 'acme', 'Acme');
      const document = await createDocument(instances[0]!, organization);
      const outcomes = await Promise.all(
        instances.flatMap((instance) =>
          Array.from({ length: 4 }, () => recordSubmission(instance, submissionFor(document))),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.created)).toHaveLength(1);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });
});
