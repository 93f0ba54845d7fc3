import { createHash } from 'node:crypto';
import {
  ExpiresInDaysSchema,
  FieldDefinitionListSchema,
  SigningOrderSchema,
  TemplateNameSchema,
  TemplateRoleListSchema,
  type FieldDefinition,
  type SignerDefinition,
  type SigningOrder,
  type TemplateRole,
  type UpdateTemplateRequest,
} from '@signet/contract';
import { ApiError, tooLarge, validationError } from '../errors.js';
import { issueDetails } from '../http/validation.js';
import { assertVersion, type IfMatch } from '../http/if-match.js';
import { newId } from '../ids.js';
import type { Logger } from '../logger.js';
import { PdfPoolBusyError, type PdfPool } from '../pdf/pool/index.js';
import { sharedPdfPool } from '../pdf-worker/index.js';
import { revokeDocumentKeys } from '../storage/queries/api-keys.js';
import {
  deleteTemplate as deleteTemplateRows,
  findTemplate,
  insertTemplate,
  insertTemplatePreview,
  replaceTemplateContent,
} from '../storage/queries/templates.js';
import type { IsoTime, Storage, TemplateRecord } from '../storage/types.js';
import { cleanFilename, contentIssues, inspectUpload, parseJsonPart } from '../documents/create-document.js';
import { importsAsked, mergeFoundFields, prepareUpload, type UploadImports } from '../documents/prepare-upload.js';

/*
 * Templates (docs/templates.md): created from an upload, edited whole under `If-Match` as a draft is, deleted. Their
 * content is checked as a draft's (a field may still be set up); making a document checks the rest.
 */

/** What `POST /templates` takes: multipart parts as text, or values a caller in code already parsed. */
export interface CreateTemplateInput extends UploadImports {
  organizationId: string;
  bytes: Uint8Array;
  name?: string | undefined;
  filename?: string | undefined;
  fields?: unknown;
  roles?: unknown;
  signingOrder?: unknown;
  expiresInDays?: unknown;
  maxPdfBytes: number;
  logger: Logger;
  pdfPool?: PdfPool;
  now?: Date;
}

/** The 404 of a template that is not the key's organization's (or not at all). */
export function templateNotFound(id: string): ApiError {
  return new ApiError('NOT_FOUND', `Template ${id} not found`);
}

/** A template's roles as the signers its fields are checked against (order 1 when not given). */
export function rolesAsSigners(roles: readonly TemplateRole[] | undefined): SignerDefinition[] | undefined {
  return roles?.map((role) => ({ id: role.id, name: role.name, order: role.order ?? 1 }));
}

/** Issues of a template's content with its paths (`roles[1]` rather than the signers' `signers[1]`). */
export function templateContentIssues(fields: readonly FieldDefinition[], roles: readonly TemplateRole[] | undefined, pageCount: number) {
  return contentIssues(fields, rolesAsSigners(roles), pageCount, true).map((issue) => ({ ...issue, field: issue.field.replace(/^signers\b/, 'roles') }));
}

function parsed<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } }, part: string, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const { field, reason } = issueDetails(result.error, [part]);
    throw validationError(field, reason);
  }
  return result.data;
}

/**
 * Creates a template, version 1, from an upload (docs/templates.md): the PDF checked and inspected in the PDF pool
 * as a document's (413, 422), its fields found with `tags` or `formFields` added to those given, its roles and
 * defaults checked (400 naming the first bad member). Its page-1 preview is drawn once, for every document made
 * from it.
 * @example await createTemplate(storage, { organizationId, bytes, name: 'Lease', roles, fields, maxPdfBytes, logger })
 */
export async function createTemplate(storage: Storage, input: CreateTemplateInput): Promise<TemplateRecord> {
  if (input.bytes.byteLength > input.maxPdfBytes) throw tooLarge('file', input.maxPdfBytes);
  const pdfPool = input.pdfPool ?? sharedPdfPool();
  importsAsked(input); // a bad `tags` or `formFields` part is a 400 before any PDF work
  const given = input.fields === undefined ? undefined : parseJsonPart('fields', input.fields, 'a JSON array of field definitions');
  const roles =
    input.roles === undefined ? undefined : parsed(TemplateRoleListSchema, 'roles', parseJsonPart('roles', input.roles, 'a JSON array of roles'));
  if (input.signingOrder !== undefined && roles === undefined) throw validationError('signingOrder', 'applies only to a template with "roles"');
  const signingOrder: SigningOrder = parsed(SigningOrderSchema, 'signingOrder', input.signingOrder ?? 'parallel');
  const expiresInDays = parseExpiresInDays(input.expiresInDays);
  const filename = cleanFilename(input.filename);
  const name = input.name === undefined ? filename : parsed(TemplateNameSchema, 'name', input.name);

  const { pageCount } = await inspectUpload(pdfPool, input.bytes);
  const { bytes, found } = await prepareUpload(pdfPool, input.bytes, input);
  const fields = parsed(FieldDefinitionListSchema, 'fields', mergeFoundFields(given, found) ?? []);
  const issue = templateContentIssues(fields, roles, pageCount)[0];
  if (issue) throw validationError(issue.field, issue.reason);

  const at = (input.now ?? new Date()).toISOString();
  const template: TemplateRecord = {
    id: newId('tpl'),
    organizationId: input.organizationId,
    name,
    filename,
    pageCount,
    fileSize: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    fields,
    ...(roles ? { roles: roles.map((role) => ({ ...role, order: role.order ?? 1 })) } : {}),
    signingOrder,
    ...(expiresInDays === undefined ? {} : { expiresInDays }),
    version: 1,
    createdAt: at,
    updatedAt: at,
  };
  await storage.db.transaction((tx) => insertTemplate(tx.query, template, bytes));
  await storeTemplatePreview(storage, pdfPool, input.logger, template.id, bytes);
  return template;
}

/** `expiresInDays` as a multipart part (text) or a number; a 400 naming it when out of bounds. */
function parseExpiresInDays(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value;
  return parsed(ExpiresInDaysSchema, 'expiresInDays', number);
}

/** Draws and stores page 1's preview; a page that cannot be drawn leaves the template without one (logged). */
async function storeTemplatePreview(storage: Storage, pdfPool: PdfPool, logger: Logger, templateId: string, pdf: Uint8Array): Promise<void> {
  try {
    await insertTemplatePreview(storage.db.query, templateId, await pdfPool.run('preview', pdf));
  } catch (error) {
    if (error instanceof PdfPoolBusyError) logger.warn({ templateId }, 'template preview not drawn: the PDF pool is busy');
    else logger.warn({ templateId, err: error }, 'template has no preview: its first page cannot be drawn');
  }
}

/**
 * Replaces a template's content as one version more, under its row's lock with the version the caller saw checked
 * (412, 428 as for a draft). Checked as a draft's content; documents made from it before keep what they copied.
 * @example await updateTemplate(storage, organizationId, id, { fields, roles }, { any: false, tags: ['"2"'] }, now)
 */
export async function updateTemplate(
  storage: Storage,
  organizationId: string,
  id: string,
  change: UpdateTemplateRequest,
  expected: IfMatch,
  at: IsoTime,
): Promise<TemplateRecord> {
  if (change.signingOrder !== undefined && change.roles === undefined) throw validationError('signingOrder', 'applies only to a template with "roles"');
  return storage.db.transaction(async (tx) => {
    const template = await findTemplate(tx.query, organizationId, id, { lock: true });
    if (!template) throw templateNotFound(id);
    assertVersion(expected, template.version);
    const issue = templateContentIssues(change.fields, change.roles, template.pageCount)[0];
    if (issue) throw validationError(issue.field, issue.reason);
    const roles = change.roles?.map((role) => ({ ...role, order: role.order ?? 1 }));
    const expiresInDays = change.expiresInDays === undefined ? template.expiresInDays : (change.expiresInDays ?? undefined);
    const next: TemplateRecord = {
      ...template,
      name: change.name ?? template.name,
      fields: change.fields,
      signingOrder: change.signingOrder ?? 'parallel',
      version: template.version + 1,
      updatedAt: at,
    };
    delete next.roles;
    delete next.expiresInDays;
    if (roles) next.roles = roles;
    if (expiresInDays !== undefined) next.expiresInDays = expiresInDays;
    await replaceTemplateContent(tx.query, id, { ...next, at });
    return next;
  });
}

/**
 * Deletes a template with its file and preview, and revokes its builder session keys (the ids of those revoked, for
 * the caller's read cache), in one transaction; 404 when there is none. Documents made from it keep their copies.
 */
export async function deleteTemplate(storage: Storage, organizationId: string, id: string, at: IsoTime): Promise<string[]> {
  return storage.db.transaction(async (tx) => {
    if (!(await deleteTemplateRows(tx.query, organizationId, id))) throw templateNotFound(id);
    // A template's builder session keys are bound to its id as a draft's are to the draft's.
    return revokeDocumentKeys(tx.query, id, at);
  });
}
