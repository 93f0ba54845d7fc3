import { AUDIT_EVENT_TYPES, type AuditEvent, type AuditEventType } from '@signet/contract';
import type { Db } from '../typed-queries.js';
import type { NewAuditEvent } from '../types.js';
import { prepare } from '../prepared.js';
import { toIso, toMillis } from '../schema.js';
import { findDocument } from './documents.js';
import { findSignerActivity } from './signers.js';
import { listVerificationEvents } from './verification.js';
import { listSignerMessages } from './signer-messages.js';

/*
 * A document's audit trail: the events stored in `audit_events` (each type once per document), and those derived
 * from where its signers stand and from its decline.
 */

/** Each type of event happens once per document, so its id is made of both (the upgrade's backfill names them so). */
const eventId = (documentId: string, type: AuditEventType): string => `evt_${type.slice('document.'.length)}_${documentId}`;

/** Oldest first; events of the same millisecond in the order a document lives them. */
export function byOccurrence(a: AuditEvent, b: AuditEvent): number {
  return a.occurredAt.localeCompare(b.occurredAt) || AUDIT_EVENT_TYPES.indexOf(a.type) - AUDIT_EVENT_TYPES.indexOf(b.type);
}

/**
 * Records an event unless the document has one of its type already (false then); `db` is the caller's transaction
 * when the event belongs to a change it makes (a new document, a submission, a seal).
 */
export async function recordAuditEvent(db: Db, documentId: string, event: NewAuditEvent): Promise<boolean> {
  const { numAffectedRows } = await INSERT_EVENT(
    db,
    eventId(documentId, event.type),
    documentId,
    event.type,
    toMillis(event.occurredAt),
    event.ip ?? null,
    event.userAgent ?? null,
  );
  return numAffectedRows === 1n;
}

const INSERT_EVENT = prepare(
  (db, id, documentId, type, occurredAt, ip, userAgent) =>
    db
      .insertInto('audit_events')
      .values({
        id: id as string,
        document_id: documentId as string,
        type: type as string,
        occurred_at: occurredAt as number,
        ip: ip as string | null,
        user_agent: userAgent as string | null,
      })
      .onConflict((oc) => oc.doNothing()),
  6,
);

/**
 * A document's events, oldest first (ties in the order of `AUDIT_EVENT_TYPES`): the stored ones, `signer.opened` and
 * `signer.completed` of each signer the document was created with (the implicit signer's are the document's own
 * events), `document.sent` (of a draft sent since), `document.declined` and `document.voided`.
 */
export async function listAuditEvents(db: Db, documentId: string): Promise<AuditEvent[]> {
  const [rows, document, activity, messages, verifications] = await Promise.all([
    db.selectFrom('audit_events').select(['type', 'occurred_at', 'ip', 'user_agent']).where('document_id', '=', documentId).execute(),
    findDocument(db, documentId),
    findSignerActivity(db, documentId),
    listSignerMessages(db, documentId),
    listVerificationEvents(db, documentId),
  ]);
  const events: AuditEvent[] = rows.map((row) => ({
    type: row.type as AuditEventType,
    occurredAt: toIso(row.occurred_at),
    ip: row.ip,
    userAgent: row.user_agent,
  }));
  if (document && !document.implicitSigner) {
    const names = new Map(document.signers.map((signer) => [signer.id, signer.name]));
    for (const state of activity) {
      const signer = { signerId: state.signerId, signerName: names.get(state.signerId) ?? state.signerId };
      if (state.openedAt !== null) {
        events.push({ type: 'signer.opened', occurredAt: state.openedAt, ip: state.openedIp, userAgent: state.openedUserAgent, ...signer });
      }
      if (state.completedAt !== null) {
        events.push({ type: 'signer.completed', occurredAt: state.completedAt, ip: state.submittedIp, userAgent: state.submittedUserAgent, ...signer });
      }
    }
    // Invitations and reminders queued by e-mail (docs/email.md): no address, no link.
    for (const message of messages) {
      const type = message.kind === 'invitation' ? 'signer.invited' : 'signer.reminded';
      events.push({ type, occurredAt: message.sentAt, ip: null, userAgent: null, signerId: message.signerId, signerName: names.get(message.signerId) ?? message.signerId });
    }
    // Signers who proved who they are, and failed tries (docs/signer-auth.md).
    for (const event of verifications) events.push({ ...event, signerName: names.get(event.signerId!) ?? event.signerId! });
  }
  if (document?.sentAt) events.push({ type: 'document.sent', occurredAt: document.sentAt, ip: null, userAgent: null });
  if (document?.declined) {
    const { at, ip, userAgent } = document.declined;
    events.push({ type: 'document.declined', occurredAt: at, ip, userAgent });
  }
  if (document?.status === 'expired' && document.expiresAt) {
    events.push({ type: 'document.expired', occurredAt: document.expiresAt, ip: null, userAgent: null });
  }
  if (document?.erased) events.push({ type: 'document.erased', occurredAt: document.erased.at, ip: null, userAgent: null });
  if (document?.voided) events.push({ type: 'document.voided', occurredAt: document.voided.at, ip: null, userAgent: null });
  return events.sort(byOccurrence);
}
