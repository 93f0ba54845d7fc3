import { SCOPES, type ApiKeyKind, type Scope } from '@signet/contract';
import { newId } from '../ids.js';
import { generateApiKey } from '../keys.js';
import { LEASE_SIGNERS, generateSamplePdf, sampleFields, sampleLeaseFields } from '../pdf/sample.js';
import type { Storage } from '../storage/types.js';
import { createDocument } from './create-document.js';
import { generateSampleFormPdf, sampleFormFields } from '../pdf/sample-form.js';
import { insertApiKey } from '../storage/queries/api-keys.js';
import { listDocuments } from '../storage/queries/documents.js';
import { ensureOrganization, findOrganizationBySlug } from '../storage/queries/organizations.js';

/** The sample agreement the seed stores, for a host app that makes more of them (the demo's backend). */
export { LEASE_SIGNERS, generateSampleFormPdf, generateSamplePdf, sampleFields, sampleFormFields, sampleLeaseFields };

export const DEFAULT_SCOPES: Record<ApiKeyKind, Scope[]> = {
  pk: ['documents:read', 'documents:submit'],
  sk: [...SCOPES],
};
export const DEFAULT_RATE_LIMIT = 600;

export interface NewApiKeyOptions {
  organizationId: string;
  kind: ApiKeyKind;
  scopes?: Scope[];
  expiresAt?: string | null;
  /** pk keys only: the origins it may be used from (empty: any). */
  origins?: string[];
  rateLimit?: number;
  /** A session key: the document it is bound to, and the signer it signs as. */
  documentId?: string;
  signerId?: string;
  /** A builder session key of `documentId` (a draft): `edit`, or `send` when it may also send it. */
  builder?: 'edit' | 'send';
  /** Default: now. */
  createdAt?: string;
}

/** A key as shown once at creation: the secret is in `key`, and is never stored. */
export interface CreatedApiKey {
  id: string;
  key: string;
  kind: ApiKeyKind;
  organizationId: string;
  scopes: Scope[];
  expiresAt: string | null;
}

/**
 * Creates an API key (docs/api.md, "Authentication"): only its SHA-256 and a display prefix are stored.
 * @example const { key } = await createApiKeyRecord(storage, { organizationId, kind: 'pk' })
 */
export async function createApiKeyRecord(storage: Storage, options: NewApiKeyOptions): Promise<CreatedApiKey> {
  const origins = options.origins ?? [];
  if (options.kind === 'sk' && origins.length > 0) throw new Error('origins apply to pk keys only');
  const { secret, hash, prefix } = generateApiKey(options.kind);
  const record = {
    id: newId('key'),
    organizationId: options.organizationId,
    kind: options.kind,
    hash,
    displayPrefix: prefix,
    scopes: options.scopes ?? DEFAULT_SCOPES[options.kind],
    expiresAt: options.expiresAt ?? null,
    revokedAt: null,
    allowedOrigins: origins,
    rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
    createdAt: options.createdAt ?? new Date().toISOString(),
    ...(options.documentId ? { documentId: options.documentId, signerId: options.signerId ?? null } : {}),
    ...(options.builder ? { builder: options.builder } : {}),
  };
  await insertApiKey(storage.db.query, record);
  return {
    id: record.id,
    key: secret,
    kind: record.kind,
    organizationId: record.organizationId,
    scopes: record.scopes,
    expiresAt: record.expiresAt,
  };
}

export interface SeedResult {
  organization: { id: string; slug: string; name: string };
  documents: Array<{ id: string; filename: string; pageCount: number }>;
  keys: { pk: { id: string; key: string }; sk: { id: string; key: string } };
}

/** The demo organization's slug. */
export const DEMO_SLUG = 'demo';

const SAMPLES = [
  { title: 'Mutual Non-Disclosure Agreement', filename: 'mutual-nda.pdf', pages: 3 },
  { title: 'Photo Consent Form', filename: 'consent-form.pdf', pages: 1 },
  { title: 'Master Services Agreement', filename: 'services-agreement.pdf', pages: 12 },
];

/**
 * The demo data: organization `demo` ("Demo Company"), three sample agreements with fields of every type, a pk and
 * an sk key. Run again, it adds new documents and keys to the same organization.
 * @example const { keys } = await seedDemo(storage)
 */
export async function seedDemo(storage: Storage): Promise<SeedResult> {
  const organization = await ensureOrganization(storage.db.query, DEMO_SLUG, 'Demo Company');
  const documents: SeedResult['documents'] = [];
  for (const sample of SAMPLES) {
    const bytes = await generateSamplePdf({ pages: sample.pages, title: sample.title });
    const document = await createDocument(storage, {
      organizationId: organization.id,
      filename: sample.filename,
      bytes,
      fields: sampleFields(sample.pages),
      maxPdfBytes: Number.MAX_SAFE_INTEGER,
    });
    documents.push({ id: document.id, filename: document.filename, pageCount: document.pageCount });
  }
  const pk = await createApiKeyRecord(storage, { organizationId: organization.id, kind: 'pk' });
  const sk = await createApiKeyRecord(storage, { organizationId: organization.id, kind: 'sk' });
  return {
    organization: { id: organization.id, slug: organization.slug, name: organization.name },
    documents,
    keys: { pk: { id: pk.id, key: pk.key }, sk: { id: sk.id, key: sk.key } },
  };
}

/** What a start of the product has to show: this run's keys, some documents, and whether it seeded just now. */
export interface DemoRun {
  seeded: boolean;
  /** `sk` only when asked for, or when the demo was seeded now (its first sk key is shown once, then). */
  keys: { pk: string; sk?: string };
  documents: Array<{ id: string; filename: string; pageCount: number }>;
}

/**
 * The demo organization for a start of the product: seeded the first time (`seedDemo`), kept afterwards, with
 * fresh keys for this run, since keys are stored hashed and shown only once.
 * @example const run = await prepareDemoRun(storage, { sk: true }); console.log(run.keys.pk)
 */
export async function prepareDemoRun(storage: Storage, options: { sk?: boolean } = {}): Promise<DemoRun> {
  const existing = await findOrganizationBySlug(storage.db.query, DEMO_SLUG);
  if (!existing) {
    const seeded = await seedDemo(storage);
    return { seeded: true, keys: { pk: seeded.keys.pk.key, sk: seeded.keys.sk.key }, documents: seeded.documents };
  }
  const pk = await createApiKeyRecord(storage, { organizationId: existing.id, kind: 'pk' });
  const sk = options.sk ? await createApiKeyRecord(storage, { organizationId: existing.id, kind: 'sk' }) : undefined;
  const documents = await listDocuments(storage.db.query, existing.id, { limit: 10 });
  return { seeded: false, keys: { pk: pk.key, ...(sk ? { sk: sk.key } : {}) }, documents };
}
