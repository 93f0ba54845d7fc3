import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations.js';
import { newId } from '../ids.js';
import { openStorage } from './index.js';
import { PostgresDatabase } from './postgres-database.js';
import type { SqlDatabase } from './sql-database.js';
import { SqliteDatabase } from './sqlite-database.js';
import { TEST_DATABASE_URL, storageEngines } from '../../test/storage/test-engines.js';
import { IMPLICIT_SIGNER, type AuthenticatedKey, type DocumentRecord, type Storage, type StoredSubmission } from './types.js';
import { storeDocument } from '../documents/create-document.js';
import { findApiKeyByHash } from './queries/api-keys.js';
import { listAuditEvents } from './queries/audit.js';
import { findDocumentPreview, readDocumentContent } from './queries/document-files.js';
import { findDocument, listDocuments } from './queries/documents.js';
import { claimIdempotencyKey } from './queries/idempotency.js';
import { findOrganizationBySlug } from './queries/organizations.js';
import { findSignerStates } from './queries/signers.js';
import { findSubmissionForDocument } from './queries/submissions.js';
import { recordSubmission } from '../submissions/record-submission.js';
import { findSealState } from './queries/seals.js';

/*
 * `fixtures/release-store.json` is a store made by the release before the storage layer was one implementation
 * (commit 9d0aba7), on each engine: the DDL its migrations ran, every row of every table it then held (bytes in
 * base64), and what its `Storage` read back from them (`reads`). It was recorded by running that commit's
 * SqliteStorage and PostgresStorage: two organizations, live, expiring and revoked keys, pending and completed
 * documents, a preview, the no-preview mark (an empty row), a submission, and idempotency keys completed, in flight
 * and refused. Recorded once; never regenerated, since the code that made it is gone.
 */
interface ReleaseStore {
  schema: string[];
  tables: Record<string, Array<Record<string, unknown>>>;
  reads: {
    organizations: Record<string, unknown>;
    apiKeys: AuthenticatedKey[];
    documents: DocumentRecord[];
    listed: string[];
    contents: Array<{ id: string; content: unknown }>;
    previews: Array<{ id: string; preview: unknown }>;
    submission: StoredSubmission;
    claims: {
      now: string;
      results: Array<{ scope: { organizationId: string; key: string }; fingerprint: string; claim: unknown }>;
    };
  };
}

const release = JSON.parse(readFileSync(new URL('../../test/storage/fixtures/release-store.json', import.meta.url), 'utf8')) as Record<
  'sqlite' | 'postgres',
  ReleaseStore
>;

const engines = await storageEngines();

/** Bytes as the fixture holds them, so that reads compare with `toEqual`. */
function encodeBytes(value: unknown): unknown {
  if (value instanceof Uint8Array) return { base64: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(encodeBytes);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, encodeBytes(member)]));
  }
  return value;
}

function decodeBytes(value: unknown): unknown {
  const base64 = (value as { base64?: unknown } | null)?.base64;
  return typeof base64 === 'string' ? Buffer.from(base64, 'base64') : value;
}

/** A new, empty database of its own, to be opened through `openStorage` too. */
interface EmptyStore {
  db: SqlDatabase;
  open(): Promise<Storage>;
  drop(): Promise<void>;
}

function emptyStore(engine: 'sqlite' | 'postgres'): EmptyStore {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'signet-upgrade-'));
    const path = join(dir, 'signet.db');
    const db = new SqliteDatabase(path);
    return {
      db,
      open: () => openStorage(`file:${path}`),
      drop: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${randomBytes(8).toString('hex')}`;
  const db = new PostgresDatabase(TEST_DATABASE_URL, { schema });
  return {
    db,
    open: () => openStorage(TEST_DATABASE_URL, { pgSchema: schema }),
    drop: async () => {
      await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await db.close();
    },
  };
}

/** Runs the release's DDL and inserts its rows, table by table in the order it created them. */
async function restore(db: SqlDatabase, store: ReleaseStore): Promise<void> {
  await db.migration(async (tx) => {
    for (const ddl of store.schema) await tx.exec(ddl);
    for (const [table, rows] of Object.entries(store.tables)) {
      for (const row of rows) {
        const columns = Object.keys(row);
        await tx.run(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          Object.values(row).map(decodeBytes),
        );
      }
    }
  });
}

/** Tables, columns, types, constraints and indexes, as the engine's catalog describes them. */
async function describeSchema(db: SqlDatabase): Promise<unknown[]> {
  if (db.engine === 'sqlite') {
    const entries = await db.all<{ type: string; name: string; sql: string | null }>(
      'SELECT type, name, sql FROM sqlite_master ORDER BY name',
    );
    return entries.map((entry) => ({ ...entry, sql: entry.sql?.replace(/\s+/g, ' ').replace(/\( /g, '(') }));
  }
  const columns = await db.all(
    `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS not_null, a.attstorage AS storage, coll.collname AS collation
     FROM pg_attribute a
     JOIN pg_class c ON c.oid = a.attrelid
     LEFT JOIN pg_collation coll ON coll.oid = a.attcollation
     WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum`,
  );
  const constraints = await db.all(
    `SELECT conrelid::regclass::text AS table_name, conname AS name, pg_get_constraintdef(oid) AS definition
     FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2`,
  );
  const indexes = await db.all(
    `SELECT indexname, replace(indexdef, current_schema() || '.', '') AS definition FROM pg_indexes
     WHERE schemaname = current_schema() ORDER BY indexname`,
  );
  return [columns, constraints, indexes];
}

/** A record the release (or any code before migration 8) read, as it reads now: with its implicit signer. */
function withImplicitSigner(document: Omit<DocumentRecord, 'signers' | 'signingOrder' | 'implicitSigner'>): DocumentRecord {
  return { ...document, signers: [{ ...IMPLICIT_SIGNER }], signingOrder: 'parallel', implicitSigner: true };
}

/** Applies the migrations up to `version` only, as the code of that version did. */
async function migrateTo(db: SqlDatabase, version: number): Promise<void> {
  await db.migration(async (tx) => {
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at ${db.ddl.bigint} NOT NULL)`);
    const applied = new Set((await tx.all<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
    for (const migration of MIGRATIONS.filter((candidate) => candidate.version <= version && !applied.has(candidate.version))) {
      await tx.exec(migration.up(db.ddl));
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [migration.version, migration.name, 0]);
    }
  });
}

describe.each(engines)('$name: a store made by the release', ({ name }) => {
  const stores: EmptyStore[] = [];
  const newStore = () => {
    const store = emptyStore(name);
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.drop()));
  });

  it('upgrades in place: every record reads back as the release read it, and the store takes writes', async () => {
    const store = newStore();
    const { reads, tables } = release[name];
    await restore(store.db, release[name]);
    const storage = await store.open();
    try {
      const applied = await store.db.all<{ version: number }>('SELECT version, name, applied_at FROM schema_migrations ORDER BY version');
      // The release's PostgreSQL dump holds BIGINTs as strings; they are read as numbers now (postgres-database.ts).
      const released = tables.schema_migrations!.map((row) => ({ ...row, applied_at: Number(row.applied_at) }));
      expect(applied.slice(0, released.length)).toEqual(released);
      expect(applied.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
      expect({
        acme: await findOrganizationBySlug(storage.db.query, 'acme'),
        globex: await findOrganizationBySlug(storage.db.query, 'globex'),
      }).toEqual(reads.organizations);
      expect(await Promise.all(reads.apiKeys.map((key) => findApiKeyByHash(storage.db.query, key.hash)))).toEqual(reads.apiKeys);
      // Every document now has a signer: the release's, created without signers, their implicit one.
      expect(await Promise.all(reads.documents.map((document) => findDocument(storage.db.query, document.id)))).toEqual(
        reads.documents.map(withImplicitSigner),
      );
      const acme = reads.documents[0]!.organizationId;
      expect((await listDocuments(storage.db.query, acme, { limit: 10 })).map((document) => document.id)).toEqual(reads.listed);
      const contents = reads.documents.map(async (document) => ({
        id: document.id,
        content: await readDocumentContent(storage.db.query, document.id, 0, document.fileSize - 1),
      }));
      expect(encodeBytes(await Promise.all(contents))).toEqual(reads.contents);
      const previews = reads.previews.map(async ({ id }) => ({ id, preview: await findDocumentPreview(storage.db.query, id) }));
      expect(encodeBytes(await Promise.all(previews))).toEqual(reads.previews);
      expect(await findSubmissionForDocument(storage.db.query, reads.submission.documentId)).toEqual({ ...reads.submission, signerId: IMPLICIT_SIGNER.id });
      // Sealing came after the release: its completed document gets a pending seal job, and every document the
      // events its rows tell (created; submitted, with the signer's address and browser).
      const sealState = await findSealState(storage.db.query, reads.submission.documentId);
      expect(sealState).toMatchObject({ job: { status: 'pending', submissionId: reads.submission.id, attempts: 0 }, sealed: null });
      expect(await listAuditEvents(storage.db.query, reads.submission.documentId)).toEqual([
        { type: 'document.created', occurredAt: reads.documents.find((d) => d.id === reads.submission.documentId)!.createdAt, ip: null, userAgent: null },
        { type: 'document.submitted', occurredAt: reads.submission.receivedAt, ip: reads.submission.clientIp, userAgent: reads.submission.userAgent },
      ]);
      const options = { now: new Date(reads.claims.now), expiresAfterMs: 24 * 3600_000, staleAfterMs: 60_000 };
      const claims = reads.claims.results.map(async ({ scope, fingerprint }) => ({
        scope,
        fingerprint,
        claim: await claimIdempotencyKey(storage.db, scope, fingerprint, options),
      }));
      expect(await Promise.all(claims)).toEqual(reads.claims.results);

      const pending = reads.documents.find((document) => document.status === 'pending')!;
      const id = newId('sub');
      const receivedAt = new Date().toISOString();
      const submission: StoredSubmission = {
        id,
        documentId: pending.id,
        signerId: IMPLICIT_SIGNER.id,
        organizationId: pending.organizationId,
        keyId: newId('key'),
        checksum: 'a'.repeat(64),
        payload: '{}',
        result: { success: true, submissionId: id, documentId: pending.id, timestamp: receivedAt, message: 'Signed' },
        clientIp: null,
        userAgent: null,
        receivedAt,
      };
      expect(await recordSubmission(storage, submission)).toEqual({ created: true, submission });
      expect(await findDocument(storage.db.query, pending.id)).toMatchObject({ status: 'completed', updatedAt: receivedAt });
      const content = randomBytes(1000);
      const document = { ...pending, id: newId('doc'), fileSize: 1000, createdAt: receivedAt };
      const created = await storeDocument(storage, document, content);
      expect(Buffer.from(await readDocumentContent(storage.db.query, created.id, 0, 999)).equals(content)).toBe(true);
    } finally {
      await storage.close();
    }
  });

  it('a store of documents created without signers (migration 7) reads back the same, with their implicit signer', async () => {
    const store = newStore();
    await restore(store.db, release[name]);
    await migrateTo(store.db, 7);
    const org = release[name].reads.documents[0]!.organizationId;
    const t = Date.parse('2026-10-01T10:00:00.000Z');
    const fields = [{ id: 'sig', type: 'signature', page: 1, x: 0.1, y: 0.1, width: 0.2, height: 0.05, required: true }];
    // As the code before migration 8 wrote them: `signers` NULL, the submission's `signer_id` ''.
    for (const [id, status] of [['doc_v7pending', 'pending'], ['doc_v7completed', 'completed']] as const) {
      await store.db.run(
        `INSERT INTO documents (id, organization_id, filename, mime_type, page_count, file_size, sha256, fields, status,
           version, created_at, updated_at) VALUES (?, ?, 'v7.pdf', 'application/pdf', 1, 3, ?, ?, ?, 1, ?, ?)`,
        [id, org, 'f'.repeat(64), JSON.stringify(fields), status, t, status === 'completed' ? t + 5000 : t],
      );
      await store.db.run('INSERT INTO document_chunks (document_id, idx, data) VALUES (?, 0, ?)', [id, new Uint8Array([1, 2, 3])]);
      await store.db.run("INSERT INTO audit_events (id, document_id, type, occurred_at) VALUES (?, ?, 'document.created', ?)", [`evt_created_${id}`, id, t]);
    }
    const result = { success: true as const, submissionId: 'sub_v7', documentId: 'doc_v7completed', timestamp: new Date(t + 5000).toISOString(), message: 'Document submitted successfully' };
    await store.db.run(
      `INSERT INTO submissions (id, document_id, signer_id, organization_id, key_id, checksum, payload, result, client_ip,
         user_agent, received_at) VALUES ('sub_v7', 'doc_v7completed', '', ?, 'key_v7', ?, '{}', ?, '203.0.113.9', 'v7', ?)`,
      [org, 'c'.repeat(64), JSON.stringify(result), t + 5000],
    );
    await store.db.run(
      "INSERT INTO audit_events (id, document_id, type, occurred_at, ip, user_agent) VALUES ('evt_submitted_doc_v7completed', 'doc_v7completed', 'document.submitted', ?, '203.0.113.9', 'v7')",
      [t + 5000],
    );
    const storage = await store.open();
    try {
      const read = (id: string, status: 'pending' | 'completed') => withImplicitSigner({
        id, organizationId: org, filename: 'v7.pdf', mimeType: 'application/pdf', pageCount: 1, fileSize: 3, sha256: 'f'.repeat(64),
        createdAt: new Date(t).toISOString(), updatedAt: new Date(status === 'completed' ? t + 5000 : t).toISOString(),
        version: 1, status, fields: fields as DocumentRecord['fields'],
      });
      expect(await findDocument(storage.db.query, 'doc_v7pending')).toEqual(read('doc_v7pending', 'pending'));
      expect(await findDocument(storage.db.query, 'doc_v7completed')).toEqual(read('doc_v7completed', 'completed'));
      expect(await findSubmissionForDocument(storage.db.query, 'doc_v7completed')).toEqual({
        id: 'sub_v7', documentId: 'doc_v7completed', signerId: IMPLICIT_SIGNER.id, organizationId: org, keyId: 'key_v7',
        checksum: 'c'.repeat(64), payload: '{}', result, clientIp: '203.0.113.9', userAgent: 'v7', receivedAt: new Date(t + 5000).toISOString(),
      });
      expect(await findSignerStates(storage.db.query, 'doc_v7completed')).toEqual([
        { signerId: '', openedAt: null, openedIp: null, openedUserAgent: null, completedAt: new Date(t + 5000).toISOString(), submissionId: 'sub_v7', verifiedAt: null },
      ]);
      expect(await findSignerStates(storage.db.query, 'doc_v7pending')).toEqual([
        { signerId: '', openedAt: null, openedIp: null, openedUserAgent: null, completedAt: null, submissionId: null, verifiedAt: null },
      ]);
      // No signer events: the implicit signer's opening and completion are the document's.
      expect(await listAuditEvents(storage.db.query, 'doc_v7completed')).toEqual([
        { type: 'document.created', occurredAt: new Date(t).toISOString(), ip: null, userAgent: null },
        { type: 'document.submitted', occurredAt: new Date(t + 5000).toISOString(), ip: '203.0.113.9', userAgent: 'v7' },
      ]);
      // The pending one completes with its implicit signer's submission.
      const receivedAt = new Date().toISOString();
      const submission: StoredSubmission = {
        id: 'sub_v7b', documentId: 'doc_v7pending', signerId: IMPLICIT_SIGNER.id, organizationId: org, keyId: 'key_v7',
        checksum: 'd'.repeat(64), payload: '{}', result: { ...result, submissionId: 'sub_v7b', documentId: 'doc_v7pending', timestamp: receivedAt },
        clientIp: null, userAgent: null, receivedAt,
      };
      expect(await recordSubmission(storage, submission)).toEqual({ created: true, submission });
      expect(await findDocument(storage.db.query, 'doc_v7pending')).toMatchObject({ status: 'completed', updatedAt: receivedAt });
      expect(await findSignerStates(storage.db.query, 'doc_v7pending')).toMatchObject([{ signerId: '', completedAt: receivedAt, submissionId: 'sub_v7b' }]);
    } finally {
      await storage.close();
    }
  });

  it('has exactly the schema of a new store', async () => {
    const upgraded = newStore();
    await restore(upgraded.db, release[name]);
    await (await upgraded.open()).close();
    const fresh = newStore();
    await (await fresh.open()).close();
    const schema = await describeSchema(upgraded.db);
    expect(schema).toEqual(await describeSchema(fresh.db));
    expect(JSON.stringify(schema)).toContain('document_previews');
  });
});
