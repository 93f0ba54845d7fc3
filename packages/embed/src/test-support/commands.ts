import type { LiveServer } from '@signet/server/testing';
import { tsImport } from 'tsx/esm/api';
import type { BrowserCommand } from 'vitest/node';

/**
 * Browser-test commands: they run in Vitest's Node process, where one real Signet server listens on a free port,
 * and give the browser fresh documents and keys on it, and what it stored.
 */
let live: Promise<LiveServer> | undefined;

// Vitest loads its config (and so these commands) with Node's own loader, which cannot read the server's
// TypeScript sources; tsx can.
const testing = () => tsImport('@signet/server/testing', import.meta.url) as Promise<typeof import('@signet/server/testing')>;
const server = () =>
  (live ??= testing().then(
    ({ startLiveServer }) => startLiveServer(),
  ));

/** Closes the server, if a test started it. */
export async function closeLiveServer(): Promise<void> {
  await (await live)?.close();
  live = undefined;
}

export interface CreatedDocument {
  baseUrl: string;
  documentId: string;
  apiKey: string;
}

const createDocument: BrowserCommand<[]> = async (): Promise<CreatedDocument> => {
  const s = await server();
  const document = await s.createDocument({ pages: 1 });
  return { baseUrl: s.url, documentId: document.id, apiKey: await s.createKey() };
};

/** Whether the server stored a submission for `documentId`. */
const hasSubmission: BrowserCommand<[documentId: string]> = async (_context, documentId) => {
  const { findSubmissionForDocument } = await testing();
  return Boolean(await findSubmissionForDocument((await server()).test.storage.db.query, documentId));
};

export interface CreatedDraft extends CreatedDocument {
  /** The organisation's sk key, which reads the draft as the server stores it. */
  managerKey: string;
}

async function dataOf(response: Response, expected: number, what: string): Promise<unknown> {
  const body = (await response.json()) as { data: unknown };
  if (response.status !== expected) throw new Error(`${what}: ${response.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** A one-page draft without fields, and a builder session key of it for the browser (`apiKey`). */
const createDraft: BrowserCommand<[options?: { allowSend?: boolean }]> = async (_context, options = {}): Promise<CreatedDraft> => {
  const s = await server();
  const { generateSamplePdf } = await testing();
  const managerKey = await s.createKey({ kind: 'sk' });
  const form = new FormData();
  form.set('file', new File([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>], 'agreement.pdf', { type: 'application/pdf' }));
  const request = (path: string, init: RequestInit) => s.test.app.request(path, { ...init, headers: { 'X-API-Key': managerKey, ...init.headers } });
  const draft = (await dataOf(await request('/documents?draft=true', { method: 'POST', body: form }), 201, 'Creating a draft')) as { id: string };
  const session = (await dataOf(
    await request(`/documents/${draft.id}/builder-sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ allowSend: options.allowSend ?? false }),
    }),
    201,
    'Minting a builder session',
  )) as { key: string };
  return { baseUrl: s.url, documentId: draft.id, apiKey: session.key, managerKey };
};

/** The draft's fields and status as the server stores them (read with the sk key). */
const readDraft: BrowserCommand<[documentId: string, managerKey: string]> = async (_context, documentId, managerKey) => {
  const s = await server();
  const response = await s.test.app.request(`/documents/${documentId}/draft`, { headers: { 'X-API-Key': managerKey } });
  return (await dataOf(response, 200, 'Reading a draft')) as StoredDraft;
};

/** A template with a builder session key of it (docs/templates.md): `documentId` holds the template's id. */
const createTemplate: BrowserCommand<[]> = async (): Promise<CreatedDraft> => {
  const s = await server();
  const { generateSamplePdf } = await testing();
  const managerKey = await s.createKey({ kind: 'sk' });
  const form = new FormData();
  form.set('file', new File([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>], 'agreement.pdf', { type: 'application/pdf' }));
  const request = (path: string, init: RequestInit) => s.test.app.request(path, { ...init, headers: { 'X-API-Key': managerKey, ...init.headers } });
  const template = (await dataOf(await request('/templates', { method: 'POST', body: form }), 201, 'Creating a template')) as { id: string };
  const session = (await dataOf(
    await request(`/templates/${template.id}/builder-sessions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
    201,
    'Minting a template builder session',
  )) as { key: string };
  return { baseUrl: s.url, documentId: template.id, apiKey: session.key, managerKey };
};

/** The template's fields and version as the server stores them (read with the sk key). */
const readTemplate: BrowserCommand<[templateId: string, managerKey: string]> = async (_context, templateId, managerKey) => {
  const s = await server();
  const response = await s.test.app.request(`/templates/${templateId}`, { headers: { 'X-API-Key': managerKey } });
  return { ...((await dataOf(response, 200, 'Reading a template')) as StoredDraft), status: 'template' };
};

export interface StoredDraft {
  version: number;
  status: string;
  fields: Array<{ id: string; type: string; page: number; x: number; y: number; width: number; height: number }>;
}

/** Voids or erases the document with an sk key, or makes it expired (docs/lifecycle.md). */
const endDocument: BrowserCommand<[documentId: string, end: 'void' | 'erase' | 'expire']> = async (_context, documentId, end) =>
  (await server()).endDocument(documentId, end);

export const embedCommands = { createDocument, hasSubmission, createDraft, readDraft, createTemplate, readTemplate, endDocument };

declare module 'vitest/browser' {
  interface BrowserCommands {
    createDocument(): Promise<CreatedDocument>;
    hasSubmission(documentId: string): Promise<boolean>;
    createDraft(options?: { allowSend?: boolean }): Promise<CreatedDraft>;
    readDraft(documentId: string, managerKey: string): Promise<StoredDraft>;
    createTemplate(): Promise<CreatedDraft>;
    readTemplate(templateId: string, managerKey: string): Promise<StoredDraft>;
    endDocument(documentId: string, end: 'void' | 'erase' | 'expire'): Promise<void>;
  }
}
