import type { FieldDefinition } from '@signet/contract';
import type { KeyOptions, LiveServer } from '@signet/server/testing';
import { tsImport } from 'tsx/esm/api';
import type { BrowserCommand } from 'vitest/node';
import { draftCommands } from './draft-commands.js';
import { fileCommands } from './file-commands.js';
import { lifecycleCommands } from './lifecycle-commands.js';
import { verificationCommands } from './verification-commands.js';
import { type ClickModifier, type PagePoint, type PointerKind, pointerCommands } from './pointer-commands.js';

/**
 * Browser-test commands: they run in Vitest's Node process, where one real Signet server listens on a free port,
 * and give the browser its URL, fresh documents and keys, and what the server stored.
 */
// Kept on globalThis: the global setup's teardown (loaded by another module loader) closes the server, and the
// React 18 project loads this module a second time but must share the one server, its log and its faults.
const SHARED = Symbol.for('signet.viewer-tests.live-server');
interface Shared {
  live?: Promise<LiveServer>;
  requests: RecordedRequest[];
  /** Faults to inject into submits, by document (test files run in parallel, each on its own documents). */
  failing: Map<string, { count: number; status: number; error?: InjectedError }>;
  /** Documents whose PDF requests wait until released (see `holdFile`). */
  held: Map<string, { promise: Promise<void>; release: () => void }>;
  /** Documents whose preview the server answers with 404 (as a server without previews would). */
  withoutPreview: Set<string>;
  /** Documents whose seal the server does not tell the viewer about until `seal` (see `holdSeal`). */
  sealHeld: Set<string>;
}
const shared: Shared = ((globalThis as { [SHARED]?: Shared })[SHARED] ??= {
  requests: [],
  failing: new Map(),
  held: new Map(),
  withoutPreview: new Set(),
  sealHeld: new Set(),
});
const { requests } = shared;

/** The error envelope's `error` member of an injected failure. */
export interface InjectedError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** A request the server saw: method, path and the headers that matter to the viewer's tests. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The document it is about: from the path, or from a submission's body. */
  documentId: string | null;
  range: string | null;
  idempotencyKey: string | null;
  /** The version a draft's change is made on (`If-Match`). */
  ifMatch: string | null;
  /** When the server received it (`Date.now()` of the server's process). */
  at: number;
}

// Vitest loads its config (and so these commands) with Node's own loader, which cannot read the server's
// TypeScript sources; tsx can.
const testing = () => tsImport('@signet/server/testing', import.meta.url) as Promise<typeof import('@signet/server/testing')>;
const server = () =>
  (shared.live ??= testing().then(async ({ startLiveServer }) => {
    const live = await startLiveServer();
    live.intercept(async (request, next) => {
      const path = new URL(request.url).pathname;
      const documentId = await documentOf(request, path);
      requests.push({
        at: Date.now(),
        method: request.method,
        path,
        documentId,
        range: request.headers.get('range'),
        idempotencyKey: request.headers.get('idempotency-key'),
        ifMatch: request.headers.get('if-match'),
      });
      const failing = documentId ? shared.failing.get(documentId) : undefined;
      if (failing && failing.count > 0 && request.method === 'POST' && path === '/sdk/documents/submit') {
        failing.count -= 1;
        const error = failing.error ?? { code: 'INTERNAL_ERROR', message: 'Injected failure' };
        const body = { success: false, error, meta: { requestId: 'req_injected', timestamp: new Date().toISOString() } };
        return Response.json(body, { status: failing.status, headers: { 'access-control-allow-origin': '*' } });
      }
      if (documentId && path.endsWith('/file')) await shared.held.get(documentId)?.promise;
      if (documentId && path.endsWith('/preview') && shared.withoutPreview.has(documentId)) {
        const error = { code: 'NOT_FOUND', message: 'Injected: no preview' };
        const body = { success: false, error, meta: { requestId: 'req_injected', timestamp: new Date().toISOString() } };
        return Response.json(body, { status: 404, headers: { 'access-control-allow-origin': '*' } });
      }
      const response = await next(request);
      if (documentId && shared.sealHeld.has(documentId) && request.method === 'GET' && path === `/sdk/documents/${documentId}`) {
        return withoutSignedCopy(response);
      }
      return response;
    });
    return live;
  }));

/** Closes the server, if a test started it. */
export async function closeLiveServer(): Promise<void> {
  await (await shared.live)?.close();
  shared.live = undefined;
}

export interface CreatedDocument {
  baseUrl: string;
  documentId: string;
  pageCount: number;
  apiKey: string;
}

const createDocument: BrowserCommand<[options?: { pages?: number; fields?: FieldDefinition[]; key?: KeyOptions }]> = async (
  _context,
  options = {},
): Promise<CreatedDocument> => {
  const s = await server();
  const document = await s.createDocument({ pages: options.pages, fields: options.fields });
  return { baseUrl: s.url, documentId: document.id, pageCount: document.pageCount, apiKey: await s.createKey(options.key) };
};

/** A two-signer lease (the tenant, then the landlord) and a session key for each. */
export interface CreatedLease {
  baseUrl: string;
  documentId: string;
  pageCount: number;
  keys: { tenant: string; landlord: string };
}

const createLease: BrowserCommand<[options?: { signingOrder?: 'parallel' | 'sequential' }]> = async (_context, options = {}): Promise<CreatedLease> => {
  const s = await server();
  const lease = await s.createLease({ signingOrder: options.signingOrder });
  const keys = { tenant: await s.createSession(lease.id, 'tenant'), landlord: await s.createSession(lease.id, 'landlord') };
  return { baseUrl: s.url, documentId: lease.id, pageCount: lease.pageCount, keys };
};

/** Signs a lease as `signerId` through the API (every field of theirs filled), as they would have on their device. */
const signAs: BrowserCommand<[documentId: string, signerId: string]> = async (_context, documentId, signerId) => {
  const s = await server();
  const { buildPayload, completeValues, findDocument } = await testing();
  const { fieldsOfSigner } = (await tsImport('@signet/contract', import.meta.url)) as typeof import('@signet/contract');
  const document = (await findDocument(s.test.storage.db.query, documentId))!;
  const own = { ...document, fields: fieldsOfSigner(document.fields, signerId) };
  const response = await s.test.app.request('/sdk/documents/submit', {
    method: 'POST',
    headers: { 'X-API-Key': await s.createSession(documentId, signerId), 'Content-Type': 'application/json' },
    body: JSON.stringify(await buildPayload(own, completeValues(own.fields))),
  });
  if (response.status !== 201) throw new Error(`Signing as ${signerId}: ${response.status} ${await response.text()}`);
};

/** Every stored submission of a document, its payload as received spread out, with its signer. */
const storedSubmissions: BrowserCommand<[documentId: string]> = async (_context, documentId) => {
  const { listSubmissions } = await testing();
  const stored = await listSubmissions((await server()).test.storage.db.query, documentId);
  return stored.map((submission) => ({ ...(JSON.parse(submission.payload) as object), id: submission.id, signerId: submission.signerId }));
};

/** The stored submission of a document, its payload as received spread out (null while pending). */
const storedSubmission: BrowserCommand<[documentId: string]> = async (_context, documentId) => {
  const { findSubmissionForDocument } = await testing();
  const stored = await findSubmissionForDocument((await server()).test.storage.db.query, documentId);
  if (!stored) return null;
  return { ...(JSON.parse(stored.payload) as object), id: stored.id, storedChecksum: stored.checksum };
};

/** Answers the next `count` submits for `documentId` with `status` (and `error`) before the server sees them. */
const failSubmits: BrowserCommand<[documentId: string, count: number, status: number, error?: InjectedError]> = async (
  _context,
  documentId,
  count,
  status,
  error,
) => {
  await server();
  shared.failing.set(documentId, { count, status, error });
};

/**
 * The requests about `documentId` the server has seen since the last call (and forgets them). Test files run in
 * parallel against one server, so each takes only its own document's requests.
 */
const takeRequests: BrowserCommand<[documentId: string]> = async (_context, documentId) => {
  await server();
  const taken = requests.filter((request) => request.documentId === documentId);
  requests.splice(0, requests.length, ...requests.filter((request) => request.documentId !== documentId));
  return taken;
};

/** Holds the server's answers to `documentId`'s PDF requests until `releaseFile`: the viewer waits on the file. */
const holdFile: BrowserCommand<[documentId: string]> = async (_context, documentId) => {
  await server();
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  shared.held.set(documentId, { promise, release });
};

const releaseFile: BrowserCommand<[documentId: string]> = async (_context, documentId) => {
  shared.held.get(documentId)?.release();
  shared.held.delete(documentId);
};

/** Makes the server answer `documentId`'s preview with 404 `NOT_FOUND`. */
const withoutPreview: BrowserCommand<[documentId: string]> = async (_context, documentId) => {
  await server();
  shared.withoutPreview.add(documentId);
};

/**
 * Keeps a document's seal from the viewer until `seal`: its `GET /sdk/documents/{id}` answers leave out
 * `signedDocumentUrl`. Other test files seal every due job of the shared server at any time (`seal`), so a test
 * that watches the viewer wait holds its document's seal first.
 */
const holdSeal: BrowserCommand<[documentId: string]> = async (_context, documentId) => {
  await server();
  shared.sealHeld.add(documentId);
};

/**
 * Seals `documentId` (its submission must be stored) with the real seal worker, and lets the viewer see it: the
 * server's due seal jobs run until this document's is done. Resolves with its sealed file's SHA-256.
 */
const seal: BrowserCommand<[documentId: string]> = async (_context, documentId) => {
  const { test } = await server();
  const { findSealState } = await testing();
  // A job put off after a failure would never come due within a test: say so rather than spin.
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    const state = await findSealState(test.storage.db.query, documentId);
    if (state.sealed) {
      shared.sealHeld.delete(documentId);
      return state.sealed.sha256;
    }
    if (!state.job) throw new Error(`${documentId} has no seal job: was it submitted?`);
    if (state.job.status === 'failed') throw new Error(`Sealing ${documentId} failed: ${state.job.lastError ?? 'no reason'}`);
    // Another test file's seal may hold this job's lease: run what is due, then look again.
    if ((await test.sealDue()) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${documentId} was not sealed: ${JSON.stringify((await findSealState(test.storage.db.query, documentId)).job)}`);
};

/** `response` (a JSON `SdkDocument`) without its `signedDocumentUrl`. */
async function withoutSignedCopy(response: Response): Promise<Response> {
  if (!response.ok) return response;
  const { signedDocumentUrl: _hidden, ...document } = (await response.json()) as Record<string, unknown>;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(document), { status: response.status, headers });
}

async function documentOf(request: Request, path: string): Promise<string | null> {
  const inPath = /\/documents\/(doc_[A-Za-z0-9]+)/.exec(path);
  if (inPath) return inPath[1]!;
  if (request.method !== 'POST' || !path.endsWith('/submit')) return null;
  const body = (await request.clone().json().catch(() => null)) as { documentId?: unknown } | null;
  return typeof body?.documentId === 'string' ? body.documentId : null;
}

export const signetCommands = {
  createDocument,
  createLease,
  signAs,
  storedSubmissions,
  storedSubmission,
  failSubmits,
  takeRequests,
  holdFile,
  releaseFile,
  withoutPreview,
  holdSeal,
  seal,
  ...pointerCommands,
  ...fileCommands,
  ...draftCommands(server),
  ...lifecycleCommands(server),
  ...verificationCommands,
};

declare module 'vitest/browser' {
  interface BrowserCommands {
    createDocument(options?: { pages?: number; fields?: FieldDefinition[]; key?: KeyOptions }): Promise<CreatedDocument>;
    createLease(options?: { signingOrder?: 'parallel' | 'sequential' }): Promise<CreatedLease>;
    signAs(documentId: string, signerId: string): Promise<void>;
    storedSubmissions(documentId: string): Promise<Array<{ id: string; signerId?: string; fields: Array<{ id: string }> }>>;
    storedSubmission(documentId: string): Promise<unknown>;
    failSubmits(documentId: string, count: number, status: number, error?: InjectedError): Promise<void>;
    takeRequests(documentId: string): Promise<RecordedRequest[]>;
    holdFile(documentId: string): Promise<void>;
    releaseFile(documentId: string): Promise<void>;
    withoutPreview(documentId: string): Promise<void>;
    holdSeal(documentId: string): Promise<void>;
    seal(documentId: string): Promise<string>;
    pointerStroke(points: PagePoint[], kind: PointerKind): Promise<void>;
    clickWithModifier(point: PagePoint, modifier: ClickModifier): Promise<void>;
  }
}
