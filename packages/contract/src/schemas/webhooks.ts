import { z } from '../zod.js';
import { idSchema } from '../ids.js';
import { TimestampSchema } from './timestamp.js';

/** The events an endpoint may subscribe to; `webhook.test` is sent on request to any endpoint. */
export const WEBHOOK_EVENT_TYPES = [
  'document.created',
  'document.sent',
  'document.viewed',
  'signer.opened',
  'signer.verified',
  'signer.completed',
  'document.completed',
  'document.declined',
  'document.voided',
  'document.expired',
  'document.sealed',
  'document.sealing_failed',
  'bulk.completed',
] as const;
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** Longest endpoint URL accepted. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** Longest description accepted. */
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;
/** How long a rotated-out secret keeps signing beside the new one. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;

const url = z
  .string()
  .max(WEBHOOK_URL_MAX_LENGTH)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an absolute http or https URL')
  .meta({ example: 'https://example.com/signet/webhooks' });
const events = z
  .array(WebhookEventTypeSchema)
  .min(1)
  .refine((list) => new Set(list).size === list.length, 'must not name an event twice');
const description = z.string().max(WEBHOOK_DESCRIPTION_MAX_LENGTH);

/** `POST /webhooks`. */
export const CreateWebhookRequestSchema = z
  .object({ url, events, description: description.optional() })
  .strict()
  .meta({ id: 'CreateWebhookRequest' });
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequestSchema>;

/** `PATCH /webhooks/{webhookId}`: the members to change, at least one. */
export const UpdateWebhookRequestSchema = z
  .object({ url: url.optional(), events: events.optional(), enabled: z.boolean().optional(), description: description.optional() })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'name at least one of url, events, enabled, description')
  .meta({ id: 'UpdateWebhookRequest' });
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequestSchema>;

/** A registered endpoint. `disabledReason` says why Signet turned it off (a 410), `null` when enabled or by hand. */
export const WebhookSchema = z
  .object({
    id: idSchema('wh'),
    url: z.string(),
    events: z.array(WebhookEventTypeSchema),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof WebhookSchema>;

/** A Standard Webhooks secret: `whsec_` and the base64 of the HMAC key. */
export const WebhookSecretSchema = z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/);

/** `POST /webhooks`'s answer: the endpoint and its signing secret, shown this once. */
export const CreatedWebhookSchema = WebhookSchema.extend({ secret: WebhookSecretSchema }).meta({ id: 'CreatedWebhook' });
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

/** `POST /webhooks/{webhookId}/rotate-secret`: the new secret, and until when the old one still signs beside it. */
export const RotatedWebhookSecretSchema = z
  .object({ id: idSchema('wh'), secret: WebhookSecretSchema, previousSecretExpiresAt: TimestampSchema })
  .meta({ id: 'RotatedWebhookSecret' });
export type RotatedWebhookSecret = z.infer<typeof RotatedWebhookSecretSchema>;

/** Where a delivery stands: waiting for its (next) attempt, being sent, acknowledged with a 2xx, or given up. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sending', 'succeeded', 'failed'] as const;

/** One event sent (or to be sent) to one endpoint, with its attempts so far. */
export const WebhookDeliverySchema = z
  .object({
    id: idSchema('dlv'),
    webhookId: idSchema('wh'),
    /** The `webhook-id` header: the same on every attempt, and for every endpoint the event goes to. */
    eventId: idSchema('msg'),
    eventType: z.string(),
    documentId: idSchema('doc').nullable(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int().min(0),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    /** The last answer's body, at most 4 KiB of it. */
    lastResponseBody: z.string().nullable(),
    lastDurationMs: z.number().int().nullable(),
    nextAttemptAt: TimestampSchema.nullable(),
    createdAt: TimestampSchema,
    deliveredAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

const documentId = idSchema('doc');

/** `document.created`: a document was uploaded. */
export const DocumentCreatedDataSchema = z.object({
  documentId,
  filename: z.string(),
  pageCount: z.number().int(),
  createdAt: TimestampSchema,
});
/**
 * `document.sent`: a draft was sent (`POST /documents/{id}/send`) and can be signed from now on. A document created
 * ready to sign is sent at creation and has no such event: its `document.created` is the one.
 */
export const DocumentSentDataSchema = z.object({ documentId, sentAt: TimestampSchema, version: z.number().int().min(1) });
/** `document.viewed`: the signer's browser fetched the PDF for the first time. */
export const DocumentViewedDataSchema = z.object({ documentId, viewedAt: TimestampSchema });
/** `signer.opened`: a signer of a document with signers opened it with their session key, the first time. */
export const SignerOpenedDataSchema = z.object({ documentId, signerId: z.string(), signerName: z.string(), openedAt: TimestampSchema });
/**
 * `signer.verified`: a signer's session key proved who they are (docs/signer-auth.md), by `method`; once per
 * session key that does, so a signer who opens the document again with a new key is verified again.
 */
export const SignerVerifiedDataSchema = z.object({
  documentId,
  signerId: z.string(),
  signerName: z.string(),
  method: z.enum(['email_code', 'access_code']),
  verifiedAt: TimestampSchema,
});
/** `signer.completed`: a signer's submission was accepted; `remaining` signers have not signed yet. */
export const SignerCompletedDataSchema = z.object({
  documentId,
  signerId: z.string(),
  signerName: z.string(),
  submissionId: idSchema('sub'),
  completedAt: TimestampSchema,
  remaining: z.number().int().min(0),
});
/**
 * `document.completed`: the submission was accepted (on a document with signers: the last signer's, and `signers`
 * lists every signer's submission). Sent once per document.
 */
export const DocumentCompletedDataSchema = z.object({
  documentId,
  submissionId: idSchema('sub'),
  submittedAt: TimestampSchema,
  checksum: z.string(),
  signers: z.array(z.object({ signerId: z.string(), submissionId: idSchema('sub') })).optional(),
});
/** `document.declined`: a signer declined to sign (`reason`); no submission is accepted any more. */
export const DocumentDeclinedDataSchema = z.object({
  documentId,
  reason: z.string(),
  declinedAt: TimestampSchema,
  signerId: z.string().optional(),
  signerName: z.string().optional(),
});
/** `document.voided`: its sender voided it (`reason`); it can no longer be opened or signed (docs/lifecycle.md). */
export const DocumentVoidedDataSchema = z.object({ documentId, reason: z.string(), voidedAt: TimestampSchema });
/** `document.expired`: its `expiresAt` passed before it was completed; it can no longer be signed (docs/lifecycle.md). */
export const DocumentExpiredDataSchema = z.object({ documentId, expiresAt: TimestampSchema });
/** `document.sealed`: the signed PDF is ready at `signedDocumentUrl` (`GET /documents/{id}/signed.pdf`, sk key). */
export const DocumentSealedDataSchema = z.object({
  documentId,
  submissionId: idSchema('sub'),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  signedDocumentUrl: z.string(),
  sealedAt: TimestampSchema,
});
/** `document.sealing_failed`: sealing gave up (`signet jobs retry` runs it again). */
export const DocumentSealingFailedDataSchema = z.object({
  documentId,
  submissionId: idSchema('sub'),
  error: z.string(),
  attempts: z.number().int(),
  failedAt: TimestampSchema,
});
/** `bulk.completed`: a bulk job made every row it could (docs/templates.md, "Bulk"); its rows tell each one's result. */
export const BulkCompletedDataSchema = z.object({
  bulkJobId: idSchema('blk'),
  templateId: idSchema('tpl'),
  total: z.number().int().min(0),
  created: z.number().int().min(0),
  failed: z.number().int().min(0),
});
/** `webhook.test`: sent by `POST /webhooks/{id}/test`. */
export const WebhookTestDataSchema = z.object({ webhookId: idSchema('wh'), message: z.string() });

const envelope = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({ type: z.literal(type), timestamp: TimestampSchema, data });

/** The body of every webhook request: `{ type, timestamp, data }`, `data` by `type`. */
export const WebhookEventSchema = z
  .discriminatedUnion('type', [
    envelope('document.created', DocumentCreatedDataSchema),
    envelope('document.sent', DocumentSentDataSchema),
    envelope('document.viewed', DocumentViewedDataSchema),
    envelope('signer.opened', SignerOpenedDataSchema),
    envelope('signer.verified', SignerVerifiedDataSchema),
    envelope('signer.completed', SignerCompletedDataSchema),
    envelope('document.completed', DocumentCompletedDataSchema),
    envelope('document.declined', DocumentDeclinedDataSchema),
    envelope('document.voided', DocumentVoidedDataSchema),
    envelope('document.expired', DocumentExpiredDataSchema),
    envelope('document.sealed', DocumentSealedDataSchema),
    envelope('document.sealing_failed', DocumentSealingFailedDataSchema),
    envelope('bulk.completed', BulkCompletedDataSchema),
    envelope('webhook.test', WebhookTestDataSchema),
  ])
  .meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
/** The `data` of each event type. */
export type WebhookEventData<T extends WebhookEvent['type']> = Extract<WebhookEvent, { type: T }>['data'];
