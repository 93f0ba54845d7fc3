import type { SqlDatabase } from './sql-database.js';
import type {
  ApiKeyKind,
  AuditEvent,
  AuditEventType,
  DocumentStatus,
  FieldDefinition,
  PadesLevel,
  Reminders,
  Scope,
  SignerDefinition,
  SigningOrder,
  SubmissionResult,
  TemplateRole,
  WebhookEventType,
} from '@signet/contract';

/** Times are ISO 8601 UTC strings with milliseconds everywhere in this interface. */
export type IsoTime = string;

export interface Organization {
  id: string;
  slug: string;
  name: string;
  createdAt: IsoTime;
}

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  kind: ApiKeyKind;
  /** SHA-256 hex of the secret; the secret itself is never stored. */
  hash: string;
  displayPrefix: string;
  scopes: Scope[];
  expiresAt: IsoTime | null;
  revokedAt: IsoTime | null;
  /** Origins a `pk` key may be used from; empty means any. */
  allowedOrigins: string[];
  /** Requests per 60-second window. */
  rateLimit: number;
  createdAt: IsoTime;
  /** A session key: the one document it works for; null (or absent) for an organization's key. */
  documentId?: string | null;
  /** A session key of a document with signers: the signer it signs as. */
  signerId?: string | null;
  /** A builder session key (bound to `documentId`, a draft): `edit`, or `send` when it may also send it. */
  builder?: 'edit' | 'send';
}

/** What the API shows of a session key. */
export type SessionKeyRecord = Pick<ApiKeyRecord, 'id' | 'expiresAt' | 'revokedAt' | 'allowedOrigins' | 'createdAt' | 'documentId' | 'signerId' | 'builder'>;

export interface AuthenticatedKey extends ApiKeyRecord {
  organization: Organization;
}

export interface DocumentRecord {
  id: string;
  organizationId: string;
  filename: string;
  mimeType: string;
  pageCount: number;
  /** Bytes. */
  fileSize: number;
  /** Hex SHA-256 of the file, the base of its ETag. */
  sha256: string;
  createdAt: IsoTime;
  updatedAt: IsoTime;
  version: number;
  status: DocumentStatus;
  fields: FieldDefinition[];
  /**
   * The signers, as created: at least one (`IMPLICIT_SIGNER` alone on a document created without signers); an
   * access code only as its hash (`StoredSigner`).
   */
  signers: StoredSigner[];
  signingOrder: SigningOrder;
  /**
   * Created without signers: its one signer is `IMPLICIT_SIGNER`, who owns every field, and the API shows no signers
   * (docs/decisions.md, "One document model").
   */
  implicitSigner: boolean;
  /** Present once a signer declined it (`status` is then `declined`). */
  declined?: DocumentDecline;
  /** When it was sent, for a document created as a draft and sent since (`status` is `draft` until then). */
  sentAt?: IsoTime;
  /** Present once its sender voided it (`status` is then `voided`; docs/lifecycle.md). */
  voided?: DocumentVoid;
  /** When it expires unless completed (`status` is `expired` from then on; docs/lifecycle.md). */
  expiresAt?: IsoTime;
  /** Present once its content was erased: the record is its tombstone (docs/lifecycle.md). */
  erased?: { at: IsoTime; by: string };
  /** Present on a document made from a template: the template and the version it copied (docs/templates.md). */
  template?: { id: string; version: number };
  /** Present when Signet e-mails its signers their signing links (docs/email.md). */
  delivery?: EmailDelivery;
}

/** A document's delivery by e-mail: its reminders, and the origin of its links when `PUBLIC_BASE_URL` is unset. */
export interface EmailDelivery {
  reminders?: Reminders;
  linkBaseUrl?: string;
}

/** A template at its current version (docs/templates.md). Without `roles`, its documents have one implicit signer. */
export interface TemplateRecord {
  id: string;
  organizationId: string;
  name: string;
  filename: string;
  pageCount: number;
  fileSize: number;
  sha256: string;
  fields: FieldDefinition[];
  roles?: TemplateRole[];
  signingOrder: SigningOrder;
  expiresInDays?: number;
  version: number;
  createdAt: IsoTime;
  updatedAt: IsoTime;
}

/** Why, when and by which API key (its record's id) a document was voided. */
export interface DocumentVoid {
  reason: string;
  at: IsoTime;
  keyId: string;
}

/** Why, when, by whom and from where a document was declined. */
export interface DocumentDecline {
  reason: string;
  at: IsoTime;
  /** The signer who declined, on a document created with signers. */
  signerId: string | null;
  ip: string | null;
  userAgent: string | null;
}

/**
 * A signer as stored: its `accessCode`, if any, replaced by `accessCodeHash` (docs/signer-auth.md), which no answer
 * shows; `protectAccessCodes` makes one of a signer as sent.
 */
export type StoredSigner = SignerDefinition & { accessCodeHash?: string };

/** Where one signer of a document with signers stands (`document_signers`). */
export interface SignerState {
  signerId: string;
  openedAt: IsoTime | null;
  openedIp: string | null;
  openedUserAgent: string | null;
  completedAt: IsoTime | null;
  submissionId: string | null;
  /** When a session key of this signer last proved who they are. */
  verifiedAt: IsoTime | null;
}

/** A document to create; without `signers` it gets `IMPLICIT_SIGNER` (and `signingOrder` defaults to `parallel`). */
export type NewDocument = Omit<
  DocumentRecord,
  'updatedAt' | 'version' | 'status' | 'declined' | 'implicitSigner' | 'signers' | 'signingOrder' | 'sentAt' | 'voided' | 'erased'
> &
  Partial<Pick<DocumentRecord, 'signers' | 'signingOrder'>> & {
    /** A draft, not signable until sent (docs/api.md, "Drafts"). */
    draft?: boolean;
  };

/**
 * The one signer of a document created without signers. Its id is empty, which no signer id a host chooses can be,
 * and it is the `signer_id` such documents' submissions always had.
 */
export const IMPLICIT_SIGNER: Readonly<SignerDefinition> = Object.freeze({ id: '', name: 'Signer' });

/** An image of a document's first page as displayed, shown before the PDF itself has loaded (`pdf/preview.ts`). */
export interface DocumentPreview {
  /** `image/webp`. */
  mediaType: string;
  /** Pixels. */
  width: number;
  height: number;
  content: Uint8Array;
}

export interface StoredSubmission {
  id: string;
  documentId: string;
  /** The signer who submitted it (`IMPLICIT_SIGNER.id` on a document created without signers). */
  signerId: string;
  organizationId: string;
  keyId: string;
  checksum: string;
  /** The payload exactly as received (JSON text), so its checksum can be verified later. */
  payload: string;
  /** The result sent with the 201, replayed on a duplicate. */
  result: SubmissionResult;
  clientIp: string | null;
  userAgent: string | null;
  receivedAt: IsoTime;
  /**
   * The seal's copies of images that were over what a seal may decode, normalised at submit (8-bit, at most 2000 px
   * a side): data URLs by the value's payload path (`fields[3].value.imageData`). The seal draws these instead.
   */
  sealImages?: Record<string, string>;
}

export type SealJobStatus = 'pending' | 'running' | 'sealed' | 'failed';

/**
 * Which documents a claim may take, by their size: only those with `perPage × pages + perByte × bytes` at most
 * `max` (a seal worker's lane for documents that are not large; see `sealing/seal-limits.ts`).
 */
export interface SealJobSizeLimit {
  perPage: number;
  perByte: number;
  max: number;
}

/** The outbox row that makes a completed document's sealed PDF (`sealing/`). */
export interface SealJob {
  documentId: string;
  submissionId: string;
  status: SealJobStatus;
  /** Attempts started so far. */
  attempts: number;
  /** When it is due (pending), or when its last attempt started (running). */
  runAt: IsoTime;
  leaseOwner: string | null;
  leaseUntil: IsoTime | null;
  /** Why the last attempt failed. */
  lastError: string | null;
  createdAt: IsoTime;
  updatedAt: IsoTime;
}

/** A sealed PDF's record; its bytes are read with `readSealedContent` (`queries/seals.ts`). */
export interface SealedDocument {
  documentId: string;
  submissionId: string;
  sha256: string;
  fileSize: number;
  sealedAt: IsoTime;
  /** The PAdES level the seal reached; absent for seals made before levels were recorded. */
  level?: PadesLevel;
}

/** A seal job with its sealed file's record once it has one: what `sealing` of a document shows. */
export interface SealState {
  job: SealJob | null;
  sealed: SealedDocument | null;
}

/** An event to record; `ip` and `userAgent` default to null. */
export type NewAuditEvent = Pick<AuditEvent, 'type' | 'occurredAt'> & Partial<Pick<AuditEvent, 'ip' | 'userAgent'>>;
export type { AuditEvent, AuditEventType };

/** Position after which a keyset page starts: the last item of the previous page (newest first). */
export interface DocumentCursor {
  createdAt: IsoTime;
  id: string;
}

export interface IdempotencyScope {
  organizationId: string;
  key: string;
}

export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'in_flight' }
  | { state: 'mismatch' }
  | { state: 'completed'; status: number; body: string };

/** A registered webhook endpoint; its secrets are encrypted (`webhooks/secrets.ts`). */
export interface WebhookEndpointRecord {
  id: string;
  organizationId: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: string | null;
  secret: Uint8Array;
  previousSecret: Uint8Array | null;
  previousSecretExpiresAt: IsoTime | null;
  createdAt: IsoTime;
  updatedAt: IsoTime;
}

/** What may change on an endpoint; `updatedAt` always does. */
export interface WebhookEndpointChanges {
  url?: string;
  description?: string | null;
  events?: WebhookEventType[];
  enabled?: boolean;
  disabledReason?: string | null;
  secret?: Uint8Array;
  previousSecret?: Uint8Array | null;
  previousSecretExpiresAt?: IsoTime | null;
  updatedAt: IsoTime;
}

export type WebhookDeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed';

/** One event to one endpoint, with its attempts so far. */
export interface WebhookDeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  documentId: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: IsoTime | null;
  leaseOwner: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponseBody: string | null;
  lastDurationMs: number | null;
  createdAt: IsoTime;
  deliveredAt: IsoTime | null;
}

/** A delivery taken by a dispatcher: with what it sends and where. */
export interface ClaimedWebhookDelivery extends WebhookDeliveryRecord {
  organizationId: string;
  url: string;
  body: string;
  secret: Uint8Array;
  previousSecret: Uint8Array | null;
  previousSecretExpiresAt: IsoTime | null;
}

/** How an attempt ended: `pending` again (due at `nextAttemptAt`), `succeeded`, or `failed` for good. */
export interface WebhookAttemptOutcome {
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: IsoTime | null;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  durationMs: number;
  at: IsoTime;
}

/** An event about to be enqueued: its body is `{ type, timestamp: occurredAt, data }`. */
export interface NewWebhookEvent {
  type: string;
  organizationId: string;
  documentId: string | null;
  occurredAt: IsoTime;
  data: Record<string, unknown>;
}

/** Newest first by (createdAt, id), as documents are listed. */
export type WebhookCursor = DocumentCursor;

/**
 * Everything Signet keeps. Two engines implement it with the same behaviour: embedded SQLite and PostgreSQL.
 * PDFs are stored in the database in chunks so that range reads touch only the bytes asked for.
 */
export interface Storage {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * The database: typed queries (`db.query`, see typed-queries.ts) and transactions. Features call the query modules
   * of `storage/queries/` with it and compose their own transactions (docs/decisions.md, "Features own their rules").
   */
  readonly db: SqlDatabase;
  /** Creates or upgrades the schema; safe to run on every start and from several instances at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}
