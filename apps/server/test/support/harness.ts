import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import {
  submissionChecksum,
  submittedFields,
  type FieldDefinition,
  type FieldValue,
  type SdkDocument,
  type Scope,
  type SignerDefinition,
  type SigningOrder,
  type TextStyle,
} from '@signet/contract';
import { createApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createDocument, storeDocument } from '../../src/documents/create-document.js';
import { createApiKeyRecord } from '../../src/documents/seed.js';
import { newId } from '../../src/ids.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { createRateLimits, type RateLimits } from '../../src/rate-limit/index.js';
import { LEASE_SIGNERS, generateSamplePdf, sampleFields, sampleLeaseFields } from '../../src/pdf/sample.js';
import { storageEngines, type StorageEngine } from '../../test/storage/test-engines.js';
import type { DocumentRecord, Organization, Storage } from '../../src/storage/types.js';
import { pngDataUrl } from '../submissions/test-png.js';
import type { PdfPool } from '../../src/pdf/pool/index.js';
import { sharedPdfPool } from '../../src/pdf-worker/index.js';
import { sealRunner } from '../../src/sealing/seal-kind.js';
import { createTestPki } from '../../test/sealing/signing/test-pki.js';
import type { SigningKey } from '../../src/sealing/types.js';
import { sampleValue } from '../../src/pdf/sample-values.js';
import { revokeApiKey } from '../../src/storage/queries/api-keys.js';
import { ensureOrganization } from '../../src/storage/queries/organizations.js';

/** The engines the app tests run on: SQLite always, PostgreSQL where reachable (always in CI). */
export const engines: StorageEngine[] = await storageEngines();
export const sqlite = engines.find((engine) => engine.name === 'sqlite')!;

export interface KeyOptions {
  kind?: 'pk' | 'sk';
  scopes?: Scope[];
  expiresAt?: string | null;
  revokedAt?: string | null;
  origins?: string[];
  rateLimit?: number;
}

/** A running app over real storage, with an organization and helpers to add keys and documents. */
export interface TestApp {
  app: ReturnType<typeof createApp>;
  storage: Storage;
  rateLimits: RateLimits;
  config: Config;
  /** The server's secret (document tokens; the key of the stored webhook secrets). */
  secret: string;
  org: Organization;
  /** Every log line written, parsed, to check what is (not) logged. */
  logs: Array<Record<string, unknown>>;
  /** The app's logger, whose lines land in `logs` (for a seal worker beside the app). */
  logger: Logger;
  createKey(options?: KeyOptions, organizationId?: string): Promise<{ id: string; secret: string }>;
  createDocument(options?: {
    pages?: number;
    fields?: FieldDefinition[];
    organizationId?: string;
    signers?: SignerDefinition[];
    signingOrder?: SigningOrder;
  }): Promise<DocumentRecord>;
  /** A two-signer lease (`sampleLeaseFields`: the tenant, then the landlord), `sequential` unless told. */
  createLease(options?: { pages?: number; signingOrder?: SigningOrder }): Promise<DocumentRecord>;
  /** A session key of a document, for `signerId` (none on a document without signers). */
  createSession(
    documentId: string,
    signerId?: string,
    options?: { expiresAt?: string; origins?: string[]; rateLimit?: number },
  ): Promise<{ id: string; secret: string }>;
  /**
   * A document of `pdf` (one page, no fields) put straight into storage, as those created before previews: none.
   * Also what a test that needs many documents, not their previews, creates them with.
   */
  createDocumentWithoutPreview(pdf: Uint8Array, options?: { organizationId?: string }): Promise<DocumentRecord>;
  /**
   * Runs the seal jobs that are due, one after the other, with the real worker, the process's PDF pool and the
   * test PKI's self-signed key (or `key`); resolves with how many ran.
   */
  sealDue(key?: SigningKey): Promise<number>;
  close(): Promise<void>;
}

/**
 * A logger at level info whose lines are kept, parsed, in `logs`, to check what is (not) logged.
 * @example const { logger, logs } = capturingLogger(); logger.warn('x'); logs[0] // { level: 40, msg: 'x', … }
 */
export function capturingLogger(): { logger: Logger; logs: Array<Record<string, unknown>> } {
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', sink), logs };
}

const samplePdfs = new Map<number, Promise<Uint8Array>>();
function samplePdf(pages: number): Promise<Uint8Array> {
  let pdf = samplePdfs.get(pages);
  if (!pdf) samplePdfs.set(pages, (pdf = generateSamplePdf({ pages })));
  return pdf;
}

/**
 * Builds the real app on a fresh storage of `engine`. Client IPs come from `X-Forwarded-For` (TRUST_PROXY=true: one
 * trusted hop, the in-process caller's), so a test can act as several clients.
 * `options.pdfPool` replaces the shared PDF pool (a test that fills a small pool of its own).
 */
export async function createTestApp(
  engine: StorageEngine = sqlite,
  env: Record<string, string> = {},
  rateLimits?: RateLimits,
  options: { pdfPool?: PdfPool } = {},
): Promise<TestApp> {
  const storage = await engine.open();
  const config = loadConfig({ TRUST_PROXY: 'true', LOG_LEVEL: 'info', ...env });
  const { logger, logs } = capturingLogger();
  const limits = rateLimits ?? createRateLimits({ authFailuresPerWindow: config.authFailuresPerMinute });
  const secret = randomBytes(32).toString('hex');
  const app = createApp({ storage, rateLimits: limits, config, secret, logger, ...(options.pdfPool ? { pdfPool: options.pdfPool } : {}) });
  const org = await ensureOrganization(storage.db.query, `org-${randomBytes(4).toString('hex')}`, 'Acme Test');

  return {
    app,
    storage,
    rateLimits: limits,
    config,
    secret,
    org,
    logs,
    logger,
    async createKey(options = {}, organizationId = org.id) {
      const created = await createApiKeyRecord(storage, {
        organizationId,
        kind: options.kind ?? 'pk',
        scopes: options.scopes,
        expiresAt: options.expiresAt,
        origins: options.origins,
        rateLimit: options.rateLimit,
      });
      if (options.revokedAt) await revokeApiKey(storage.db.query, created.id, options.revokedAt);
      return { id: created.id, secret: created.key };
    },
    async createDocument(options = {}) {
      const pages = options.pages ?? 3;
      return createDocument(storage, {
        organizationId: options.organizationId ?? org.id,
        filename: 'agreement.pdf',
        bytes: await samplePdf(pages),
        fields: options.fields ?? sampleFields(pages),
        signers: options.signers,
        signingOrder: options.signingOrder,
        maxPdfBytes: config.maxPdfBytes,
        logger,
      });
    },
    async createLease(options = {}) {
      const pages = options.pages ?? 2;
      return createDocument(storage, {
        organizationId: org.id,
        filename: 'lease.pdf',
        bytes: await generateSamplePdf({ pages, title: 'Lease Agreement', countersigned: true }),
        fields: sampleLeaseFields(pages),
        signers: [...LEASE_SIGNERS],
        signingOrder: options.signingOrder ?? 'sequential',
        maxPdfBytes: config.maxPdfBytes,
        logger,
      });
    },
    async createSession(documentId, signerId, options = {}) {
      const created = await createApiKeyRecord(storage, {
        organizationId: org.id,
        kind: 'pk',
        expiresAt: options.expiresAt ?? new Date(Date.now() + 3600_000).toISOString(),
        origins: options.origins,
        rateLimit: options.rateLimit,
        documentId,
        ...(signerId === undefined ? {} : { signerId }),
      });
      return { id: created.id, secret: created.key };
    },
    async createDocumentWithoutPreview(pdf, options = {}) {
      return storeDocument(storage,
        {
          id: newId('doc'),
          organizationId: options.organizationId ?? org.id,
          filename: 'before-previews.pdf',
          mimeType: 'application/pdf',
          pageCount: 1,
          fileSize: pdf.byteLength,
          sha256: createHash('sha256').update(pdf).digest('hex'),
          fields: [],
          createdAt: new Date().toISOString(),
        },
        pdf,
      );
    },
    async sealDue(key) {
      const signing = key ?? (await createTestPki()).selfSigned;
      const worker = sealRunner({
        storage,
        pdfPool: sharedPdfPool(),
        logger,
        config: config.sealing,
        signingKey: async () => signing,
      });
      let ran = 0;
      while (await worker.runOnce('seal')) ran++;
      return ran;
    },
    async close() {
      if (!rateLimits) await limits.close();
      await storage.close();
    },
  };
}

/** Values that complete every required field of the sample document's fields. */
export function completeValues(fields: readonly FieldDefinition[]): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const field of fields) {
    if (field.editable) values[field.id] = sampleValue(field, pngDataUrl(120, 40));
  }
  return values;
}

const TEXT_STYLE: TextStyle = { fontSize: 14, fontFamily: 'Helvetica', textAlign: 'left' };

/**
 * A submission payload for `document` with `values`, checksummed as the contract says. Its fields are the
 * contract's `submittedFields`, as the client's `buildSubmission` builds them (the harness cannot import
 * `@signet/api`: its tests import this harness, and pnpm refuses a cycle of workspace packages). `mutate` changes
 * the payload before the checksum is computed (to build well-checksummed bad payloads).
 */
export async function buildPayload(
  document: Pick<SdkDocument, 'fields'> & { id: string; pageCount: number },
  values: Record<string, FieldValue> = completeValues(document.fields),
  mutate?: (payload: Record<string, any>) => void,
): Promise<Record<string, any>> {
  const payload: Record<string, any> = {
    documentId: document.id,
    submittedAt: new Date().toISOString(),
    renderContext: { scale: 1.5, viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 2 },
    pages: Array.from({ length: document.pageCount }, (_, i) => ({ pageNumber: i + 1, width: 612, height: 792, rotation: 0 })),
    fields: submittedFields(document.fields, values, () => TEXT_STYLE),
  };
  mutate?.(payload);
  payload.checksum = await submissionChecksum(payload);
  return payload;
}

/** `app.request` with a key, an optional JSON body and extra headers. */
export function call(
  t: Pick<TestApp, 'app'>,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string>; ip?: string } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['X-API-Key'] = options.key;
  headers['X-Forwarded-For'] = options.ip ?? '203.0.113.7';
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  return t.app.request(path, { method, headers, body });
}
