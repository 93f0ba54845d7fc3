import type { AuditEvent, FieldDefinition, PadesLevel, SubmittedField } from '@signet/contract';
import type { IsoTime } from '../storage/types.js';
import type { Pkcs11Settings } from './signing/pkcs11-config.js';

/** What happened to a document, in order: the audit trail (`audit_events`, `GET /documents/{id}/audit`). */
export type AuditTrailEvent = AuditEvent;

/** A signing certificate with its private key, as PKCS#12, ready for `signPdf`. */
export interface SigningKey {
  p12: Uint8Array;
  password: string;
}

/** A key held in a PKCS#11 token (`SIGNET_SIGNING_PKCS11`): where it is; the worker that signs opens the token. */
export interface Pkcs11Key {
  pkcs11: Pkcs11Settings;
}

/** What seals are signed with: a PKCS#12 or a key in a PKCS#11 token. */
export type SealingKey = SigningKey | Pkcs11Key;

/** Everything a seal needs besides the original PDF: it crosses into a pool worker, so it is plain data. */
export interface SealInput {
  document: { id: string; filename: string; pageCount: number; sha256: string };
  fields: FieldDefinition[];
  submission: {
    id: string;
    /** The payload checksum (SHA-256 of its canonical JSON). */
    checksum: string;
    receivedAt: IsoTime;
    clientIp: string | null;
    userAgent: string | null;
    /** The submitted values (`payload.fields`). */
    values: SubmittedField[];
  };
  /**
   * A document with signers: each signer and their submission, in the document's order (`submission` is then the
   * last one's, which completed the document, and `submission.values` every signer's values).
   */
  signers?: Array<{ name: string; email?: string; submission: Omit<SealInput['submission'], 'values'> }>;
  /** The timeline so far (created, opened, submitted); the seal adds `document.sealed` at `sealedAt`. */
  events: AuditTrailEvent[];
  /** The seal's time: the audit page's "sealed" entry and the signature's `/M`. */
  sealedAt: IsoTime;
  signing: SealingKey & {
    tsaUrl?: string;
    tsaTimeoutMs?: number;
    /** The PAdES level asked for (`SIGNET_PADES_LEVEL`); default B-T with `tsaUrl`, else B-B. */
    level?: PadesLevel;
    revocationTimeoutMs?: number;
    /** The job's last attempt: a level not reached now is given up on rather than retried (`signPdfAtLevel`). */
    finalAttempt?: boolean;
  };
}
