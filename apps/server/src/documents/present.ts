import type { DocumentMetadata, Draft, ManagedDocument, Sealing, SubmissionRecord } from '@signet/contract';
import { IMPLICIT_SIGNER, type DocumentRecord, type SealState, type SignerState, type StoredSubmission } from '../storage/types.js';
import { signersOf } from './signers.js';

/** A document's metadata as the API shows it (docs/api.md, "Documents"). */
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
    ...(document.expiresAt ? { expiresAt: document.expiresAt } : {}),
  };
}

/** Where a document's sealed PDF stands, from its seal job and sealed file (none yet: `pending`). */
export function sealingOf(state: SealState): Sealing {
  if (state.sealed) {
    const { sha256, sealedAt, level } = state.sealed;
    return { status: 'sealed', sha256, sealedAt, ...(level ? { level } : {}) };
  }
  return { status: state.job?.status === 'failed' ? 'failed' : 'pending' };
}

/** A document with its field definitions, its sealing and its signers, as the management endpoints show it. */
export function managedDocument(document: DocumentRecord, sealing: Sealing, states: readonly SignerState[]): ManagedDocument {
  const managed: ManagedDocument = { ...documentMetadata(document), fields: document.fields, sealing };
  if (document.declined) {
    const { reason, at, signerId } = document.declined;
    managed.declined = { reason, declinedAt: at, ...(signerId ? { signerId } : {}) };
  }
  if (document.voided) managed.voided = { reason: document.voided.reason, voidedAt: document.voided.at };
  if (document.template) managed.template = { id: document.template.id, version: document.template.version };
  if (document.delivery) {
    managed.delivery = 'email';
    if (document.delivery.reminders) managed.reminders = document.delivery.reminders;
  }
  if (document.implicitSigner) return managed;
  return { ...managed, signingOrder: document.signingOrder, signers: signersOf(document, states) };
}

/**
 * A document as its author edits it (`GET /documents/{id}/draft`): its fields, signers as defined (with their emails
 * and orders) and signing order, and the `documentUrl` of its PDF.
 */
export function draftOf(document: DocumentRecord, documentUrl: string): Draft {
  const draft: Draft = { ...documentMetadata(document), fields: document.fields, documentUrl };
  if (document.implicitSigner) return draft;
  const signers = document.signers.map(({ id, name, email, order, auth }) => ({
    id,
    name,
    ...(email ? { email } : {}),
    order: order ?? 1,
    ...(auth && auth !== 'none' ? { auth } : {}),
  }));
  return { ...draft, signingOrder: document.signingOrder, signers };
}

/** The sealed copy's file name: the original's with "-signed" before its extension. */
export function signedFilename(filename: string): string {
  const stem = filename.replace(/\.pdf$/i, '');
  return `${stem}-signed.pdf`;
}

/**
 * A stored submission as `GET /documents/{id}/submission` shows it: the payload as received plus its record (with
 * its signer's id unless that is the implicit signer, whom the API never shows).
 */
export function submissionRecord(submission: StoredSubmission): SubmissionRecord {
  const payload = JSON.parse(submission.payload) as Pick<
    SubmissionRecord,
    'submittedAt' | 'renderContext' | 'pages' | 'fields'
  >;
  return {
    id: submission.id,
    documentId: submission.documentId,
    ...(submission.signerId === IMPLICIT_SIGNER.id ? {} : { signerId: submission.signerId }),
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
