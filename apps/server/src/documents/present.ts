import type { DocumentMetadata, ManagedDocument, SubmissionRecord } from '@signet/contract';
import type { DocumentRecord, StoredSubmission } from '../storage/types.js';

/** A document's metadata as the API shows it (contract §2.4, plus `status`). */
export function documentMetadata(document: DocumentRecord): DocumentMetadata {
  return {
    id: document.id,
    filename: document.filename,
    mimeType: document.mimeType,
    pageCount: document.pageCount,
    fileSize: document.fileSize,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
    version: document.version,
    status: document.status,
  };
}

/** A document with its field definitions, as the management endpoints show it. */
export function managedDocument(document: DocumentRecord): ManagedDocument {
  return { ...documentMetadata(document), fields: document.fields };
}

/** A stored submission as `GET /documents/{id}/submission` shows it: the payload as received plus its record. */
export function submissionRecord(submission: StoredSubmission): SubmissionRecord {
  const payload = JSON.parse(submission.payload) as Pick<
    SubmissionRecord,
    'submittedAt' | 'renderContext' | 'pages' | 'fields'
  >;
  return {
    id: submission.id,
    documentId: submission.documentId,
    keyId: submission.keyId,
    checksum: submission.checksum,
    submittedAt: payload.submittedAt,
    receivedAt: submission.receivedAt,
    clientIp: submission.clientIp,
    userAgent: submission.userAgent,
    renderContext: payload.renderContext,
    pages: payload.pages,
    fields: payload.fields,
  };
}
