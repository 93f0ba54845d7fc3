import {
  draftProblems,
  fieldValueProblem,
  type CreateTemplateDocumentRequest,
  type FieldDefinition,
  type SignerDefinition,
  type FieldDefinitionIssue,
} from '@signet/contract';
import { ApiError, validationError } from '../errors.js';
import { newId } from '../ids.js';
import { insertDocumentPreview } from '../storage/queries/document-files.js';
import { findTemplate, findTemplatePreview, readTemplateContent } from '../storage/queries/templates.js';
import type { DocumentRecord, NewDocument, Storage, TemplateRecord } from '../storage/types.js';
import { parseExpiresAt } from '../documents/expiry.js';
import { cleanFilename, storeDocument } from '../documents/create-document.js';
import { unsafePatternIssues } from '../documents/pattern-safety.js';
import { parseDelivery, type DeliveryOptions } from '../documents/delivery-options.js';
import { templateNotFound } from './templates.js';
import { assertEmailCodesSendable } from '../signer-auth/mail-required.js';

/*
 * Documents made from a template (docs/templates.md): a copy of its current version — file, fields, roles bound to
 * signers, defaults — with the values given, recording the template and version it came from.
 */

const DAY_MS = 86_400_000;

/** Each role bound to the signer given for it, in the roles' order; a 400 naming what does not match. */
function bindSigners(template: TemplateRecord, given: CreateTemplateDocumentRequest['signers']): SignerDefinition[] | undefined {
  if (!template.roles) {
    if (given !== undefined) throw validationError('signers', 'this template has no roles: its documents have one signer, not named in advance');
    return undefined;
  }
  const roles = template.roles;
  if (given === undefined) throw validationError('signers', `is required: one signer for each role (${roles.map((role) => role.id).join(', ')})`);
  const byRole = new Map<string, (typeof given)[number]>();
  given.forEach((signer, index) => {
    if (!roles.some((role) => role.id === signer.role)) {
      throw validationError(`signers[${index}].role`, `"${signer.role}" is not a role of this template (${roles.map((role) => role.id).join(', ')})`);
    }
    if (byRole.has(signer.role)) throw validationError(`signers[${index}].role`, `role "${signer.role}" is given twice`);
    byRole.set(signer.role, signer);
  });
  const missing = roles.find((role) => !byRole.has(role.id));
  if (missing) throw validationError('signers', `role "${missing.id}" has no signer`);
  return roles.map((role) => {
    const signer = byRole.get(role.id)!;
    return {
      id: role.id,
      name: signer.name,
      ...(signer.email ? { email: signer.email } : {}),
      order: role.order ?? 1,
      ...(signer.locale ? { locale: signer.locale } : {}),
      ...(signer.auth ? { auth: signer.auth } : {}),
      ...(signer.accessCode !== undefined ? { accessCode: signer.accessCode } : {}),
    };
  });
}

/** The template's fields with the values given; 400 for an unknown field or a value of another type, 422 for one its rules refuse. */
function fillValues(fields: readonly FieldDefinition[], values: CreateTemplateDocumentRequest['values']): FieldDefinition[] {
  const byId = new Map(fields.map((field) => [field.id, field]));
  for (const [id, value] of Object.entries(values ?? {})) {
    const field = byId.get(id);
    if (!field) throw validationError(`values.${id}`, `the template has no field "${id}"`);
    if (value.type !== field.type) throw validationError(`values.${id}.type`, `a ${field.type} field cannot hold a ${value.type} value`);
    // A template is checked as a draft: a pattern that could take exponential time is refused before it runs.
    const unsafe = unsafePatternIssues([field])[0];
    if (unsafe) throw validationError(`values.${id}`, `field "${id}": ${unsafe.reason}`, 422);
    const problem = fieldValueProblem(field, value);
    if (problem) throw validationError(`values.${id}.${problem.member}`, problem.reason, 422);
  }
  return fields.map((field) => (values && Object.hasOwn(values, field.id) ? { ...field, value: values[field.id]! } : field));
}

/** What stops the filled-in template from being signed: a draft's problems, and read-only fields no one can fill in. */
function documentProblems(template: TemplateRecord, fields: FieldDefinition[], signers: SignerDefinition[] | undefined): FieldDefinitionIssue[] {
  const problems = [...draftProblems({ fields, signers, pageCount: template.pageCount }), ...unsafePatternIssues(fields)];
  fields.forEach((field, index) => {
    if (!field.editable && field.required && field.value === undefined) {
      problems.push({ field: `fields[${index}]`, reason: `field "${field.id}" is read-only and required: give it a value in "values"` });
    }
  });
  return problems.map((problem) => ({ ...problem, field: problem.field.replace(/^signers\b/, 'roles') }));
}

/**
 * The document a template's current version makes with `request`, checked but not stored: 400 for signers that do
 * not bind each role once, an unknown field in `values` or a value of another type; 422 for a value its field's
 * rules refuse, or a template that cannot make a signable document yet (every problem in `details.problems`). A
 * draft (`draft: true`) is checked when it is sent instead. Bulk creation (`bulk/`) runs it on each row.
 * @example const document = prepareTemplateDocument(template, { signers: [{ role: 'tenant', name: 'Ada' }] }, new Date())
 */
export function prepareTemplateDocument(
  template: TemplateRecord,
  request: CreateTemplateDocumentRequest,
  now: Date,
  deliveryOptions: DeliveryOptions = { mailConfigured: true },
): NewDocument {
  const signers = bindSigners(template, request.signers);
  assertEmailCodesSendable(signers, deliveryOptions.mailConfigured);
  const delivery = parseDelivery(request, deliveryOptions);
  if (request.signingOrder !== undefined && !signers) throw validationError('signingOrder', 'applies only to a template with roles');
  const fields = fillValues(template.fields, request.values);
  const expiresAt =
    request.expiresAt !== undefined
      ? parseExpiresAt(request.expiresAt, now)
      : template.expiresInDays === undefined
        ? undefined
        : new Date(now.getTime() + template.expiresInDays * DAY_MS).toISOString();
  const draft = request.draft === true;
  if (!draft) {
    const problems = documentProblems(template, fields, signers);
    if (problems.length > 0) {
      const [first] = problems;
      throw new ApiError('VALIDATION_ERROR', `The template cannot make a signable document yet: ${problems.length} problem${problems.length === 1 ? '' : 's'}`, {
        status: 422,
        details: { field: first!.field, reason: first!.reason, problems },
      });
    }
  }
  return {
    id: newId('doc'),
    organizationId: template.organizationId,
    filename: request.filename === undefined ? template.filename : cleanName(request.filename, template.filename),
    mimeType: 'application/pdf',
    pageCount: template.pageCount,
    fileSize: template.fileSize,
    sha256: template.sha256,
    fields,
    ...(signers ? { signers, signingOrder: request.signingOrder ?? template.signingOrder } : {}),
    createdAt: now.toISOString(),
    ...(draft ? { draft } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    template: { id: template.id, version: template.version },
    ...(delivery ? { delivery } : {}),
  };
}

/**
 * Makes a document from a template's current version (`POST /templates/{templateId}/documents`): 404 for no such
 * template; otherwise as `prepareTemplateDocument` checks it.
 * @example await createDocumentFromTemplate(storage, org, 'tpl_…', { signers: [{ role: 'tenant', name: 'Ada' }] }, new Date())
 */
export async function createDocumentFromTemplate(
  storage: Storage,
  organizationId: string,
  templateId: string,
  request: CreateTemplateDocumentRequest,
  now: Date,
  deliveryOptions?: DeliveryOptions,
): Promise<DocumentRecord> {
  const template = await findTemplate(storage.db.query, organizationId, templateId);
  if (!template) throw templateNotFound(templateId);
  const prepared = prepareTemplateDocument(template, request, now, deliveryOptions);
  const bytes = await readTemplateContent(storage.db.query, template.id, 0, template.fileSize - 1);
  const document = await storeDocument(storage, prepared, bytes);
  const preview = await findTemplatePreview(storage.db.query, template.id);
  if (preview) await insertDocumentPreview(storage.db.query, document.id, preview);
  return document;
}

function cleanName(filename: string, fallback: string): string {
  const clean = cleanFilename(filename);
  return clean === 'document.pdf' ? fallback : clean;
}
