import { createHash } from 'node:crypto';
import { FieldDefinitionListSchema, fieldDefinitionIssues } from '@signet/contract';
import { ApiError, validationError } from '../errors.js';
import { zodValidationError } from '../http/validation.js';
import { newId } from '../ids.js';
import { inspectPdf } from '../pdf/inspect.js';
import type { DocumentRecord, Storage } from '../storage/types.js';

export interface CreateDocumentInput {
  organizationId: string;
  filename?: string;
  bytes: Uint8Array;
  /** The field definitions: a JSON string (as uploaded) or an already parsed value. */
  fields: unknown;
  maxPdfBytes: number;
}

/** A file name safe to show and to put in `Content-Disposition`: no path, no control characters, 255 at most. */
export function cleanFilename(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return clean || 'document.pdf';
}

/**
 * Creates a document from a PDF and its field definitions (SPEC §5): the file must be a PDF that parses, no larger
 * than `maxPdfBytes` (else 413); the fields must have the contract's shape and fit the document (else 400 naming
 * the first bad member, such as `fields[2].x`).
 * @example await createDocument(storage, { organizationId, filename: 'nda.pdf', bytes, fields, maxPdfBytes })
 */
export async function createDocument(storage: Storage, input: CreateDocumentInput): Promise<DocumentRecord> {
  if (input.bytes.byteLength > input.maxPdfBytes) {
    throw new ApiError('VALIDATION_ERROR', 'The file is too large', {
      status: 413,
      details: { field: 'file', reason: `the PDF may not exceed ${input.maxPdfBytes} bytes` },
    });
  }
  const { pageCount } = await inspectPdf(input.bytes);

  let fields: unknown = input.fields;
  if (typeof fields === 'string') {
    try {
      fields = JSON.parse(fields);
    } catch {
      throw validationError('fields', 'must be a JSON array of field definitions');
    }
  }
  const parsed = FieldDefinitionListSchema.safeParse(fields);
  if (!parsed.success) {
    const error = zodValidationError(parsed.error, 'fields');
    const field = error.details?.field === 'fields' ? 'fields' : `fields${error.details?.field?.startsWith('[') ? '' : '.'}${error.details?.field}`;
    throw validationError(field, error.details?.reason ?? 'is invalid');
  }
  const issue = fieldDefinitionIssues(parsed.data, pageCount)[0];
  if (issue) throw validationError(issue.field, issue.reason);

  return storage.createDocument(
    {
      id: newId('doc'),
      organizationId: input.organizationId,
      filename: cleanFilename(input.filename),
      mimeType: 'application/pdf',
      pageCount,
      fileSize: input.bytes.byteLength,
      sha256: createHash('sha256').update(input.bytes).digest('hex'),
      fields: parsed.data,
      createdAt: new Date().toISOString(),
    },
    input.bytes,
  );
}
