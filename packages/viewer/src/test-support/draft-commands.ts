import type { FieldDefinition, SignerDefinition } from '@signet/contract';
import type { LiveServer } from '@signet/server/testing';
import { tsImport } from 'tsx/esm/api';
import type { BrowserCommand } from 'vitest/node';

/**
 * Browser-test commands of the builder: a draft on the real server with a builder session key for the browser, and
 * what an sk key reads and writes of it meanwhile (the server's truth, and another author's concurrent edit).
 */

/** A draft and the keys of it: `apiKey` a builder session key (the browser's), `managerKey` the organisation's sk key. */
export interface CreatedDraft {
  baseUrl: string;
  documentId: string;
  pageCount: number;
  apiKey: string;
  managerKey: string;
}

/** The draft as `GET /documents/{id}/draft` answers the sk key. */
export interface ReadDraft {
  version: number;
  status: string;
  fields: FieldDefinition[];
  signers?: SignerDefinition[];
  signingOrder?: string;
}

const testing = () => tsImport('@signet/server/testing', import.meta.url) as Promise<typeof import('@signet/server/testing')>;

type ServerOf = () => Promise<LiveServer>;

async function json(response: Response, expected: number, what: string) {
  const body = (await response.json()) as { data: unknown };
  if (response.status !== expected) throw new Error(`${what}: ${response.status} ${JSON.stringify(body)}`);
  return body.data;
}

export function draftCommands(server: ServerOf) {
  const managerKeys = new Map<string, string>();

  const createDraft: BrowserCommand<
    [options?: { pages?: number; fields?: FieldDefinition[]; signers?: SignerDefinition[]; allowSend?: boolean }]
  > = async (_context, options = {}): Promise<CreatedDraft> => {
    const s = await server();
    const { generateSamplePdf } = await testing();
    const managerKey = await s.createKey({ kind: 'sk' });
    const form = new FormData();
    const pdf = await generateSamplePdf({ pages: options.pages ?? 2 });
    form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'agreement.pdf', { type: 'application/pdf' }));
    if (options.fields) form.set('fields', JSON.stringify(options.fields));
    if (options.signers) form.set('signers', JSON.stringify(options.signers));
    const created = (await json(
      await s.test.app.request('/documents?draft=true', { method: 'POST', headers: { 'X-API-Key': managerKey }, body: form }),
      201,
      'Creating a draft',
    )) as { id: string; pageCount: number };
    managerKeys.set(created.id, managerKey);
    const session = (await json(
      await s.test.app.request(`/documents/${created.id}/builder-sessions`, {
        method: 'POST',
        headers: { 'X-API-Key': managerKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ allowSend: options.allowSend ?? false }),
      }),
      201,
      'Minting a builder session',
    )) as { key: string };
    return { baseUrl: s.url, documentId: created.id, pageCount: created.pageCount, apiKey: session.key, managerKey };
  };

  /** The draft as stored, read with the sk key. */
  const readDraft: BrowserCommand<[documentId: string]> = async (_context, documentId): Promise<ReadDraft> => {
    const s = await server();
    const response = await s.test.app.request(`/documents/${documentId}/draft`, { headers: { 'X-API-Key': managerKeys.get(documentId)! } });
    return (await json(response, 200, 'Reading a draft')) as ReadDraft;
  };

  /** Another author's save: `PUT /documents/{id}/draft` with the sk key on `version`. */
  const putDraft: BrowserCommand<[documentId: string, version: number, fields: FieldDefinition[]]> = async (_context, documentId, version, fields) => {
    const s = await server();
    const response = await s.test.app.request(`/documents/${documentId}/draft`, {
      method: 'PUT',
      headers: { 'X-API-Key': managerKeys.get(documentId)!, 'Content-Type': 'application/json', 'If-Match': `"${version}"` },
      body: JSON.stringify({ fields }),
    });
    return ((await json(response, 200, 'Saving a draft')) as ReadDraft).version;
  };

  /** A template with `roles` on the real server and a builder session key of it (docs/templates.md). */
  const createTemplate: BrowserCommand<[options?: { fields?: FieldDefinition[]; roles?: Array<{ id: string; name: string; order?: number }> }]> = async (
    _context,
    options = {},
  ): Promise<CreatedDraft> => {
    const s = await server();
    const { generateSamplePdf } = await testing();
    const managerKey = await s.createKey({ kind: 'sk' });
    const form = new FormData();
    form.set('file', new File([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>], 'lease.pdf', { type: 'application/pdf' }));
    form.set('name', 'Lease');
    if (options.fields) form.set('fields', JSON.stringify(options.fields));
    if (options.roles) form.set('roles', JSON.stringify(options.roles));
    const created = (await json(
      await s.test.app.request('/templates', { method: 'POST', headers: { 'X-API-Key': managerKey }, body: form }),
      201,
      'Creating a template',
    )) as { id: string; pageCount: number };
    managerKeys.set(created.id, managerKey);
    const session = (await json(
      await s.test.app.request(`/templates/${created.id}/builder-sessions`, {
        method: 'POST',
        headers: { 'X-API-Key': managerKey, 'Content-Type': 'application/json' },
        body: '{}',
      }),
      201,
      'Minting a template builder session',
    )) as { key: string };
    return { baseUrl: s.url, documentId: created.id, pageCount: created.pageCount, apiKey: session.key, managerKey };
  };

  /** The template as stored, read with the sk key: its roles where a draft has signers. */
  const readTemplate: BrowserCommand<[templateId: string]> = async (_context, templateId): Promise<ReadDraft> => {
    const s = await server();
    const response = await s.test.app.request(`/templates/${templateId}`, { headers: { 'X-API-Key': managerKeys.get(templateId)! } });
    const template = (await json(response, 200, 'Reading a template')) as ReadDraft & { roles?: SignerDefinition[] };
    return { ...template, status: 'template', ...(template.roles ? { signers: template.roles } : {}) };
  };

  return { createDraft, readDraft, putDraft, createTemplate, readTemplate };
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    createDraft(options?: { pages?: number; fields?: FieldDefinition[]; signers?: SignerDefinition[]; allowSend?: boolean }): Promise<CreatedDraft>;
    readDraft(documentId: string): Promise<ReadDraft>;
    putDraft(documentId: string, version: number, fields: FieldDefinition[]): Promise<number>;
    createTemplate(options?: { fields?: FieldDefinition[]; roles?: Array<{ id: string; name: string; order?: number }> }): Promise<CreatedDraft>;
    readTemplate(templateId: string): Promise<ReadDraft>;
  }
}
