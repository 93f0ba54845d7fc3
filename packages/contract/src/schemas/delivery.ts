import { z } from '../zod.js';
import { idSchema } from '../ids.js';
import { TimestampSchema } from './timestamp.js';
import { SignerIdSchema } from './signers.js';

/*
 * Delivery by e-mail (docs/email.md): whether Signet itself invites a document's signers (each with an `email`) by
 * e-mail with a link to its hosted signing page, and reminds them while they have not signed.
 */

/** `none` (default): the host delivers the signing links itself. `email`: Signet e-mails each signer their link. */
export const DELIVERIES = ['none', 'email'] as const;
export const DeliverySchema = z.enum(DELIVERIES);
export type Delivery = z.infer<typeof DeliverySchema>;

/** The bounds of a document's reminder schedule, in days and reminders. */
export const REMINDER_LIMITS = {
  firstAfterDays: { min: 1, max: 30 },
  everyDays: { min: 1, max: 30 },
  max: { min: 1, max: 10 },
} as const;

/**
 * A document's reminders: the first `firstAfterDays` after a signer's invitation, then every `everyDays`, at most
 * `max` to each signer, while they have not signed and the document can still be signed.
 * @example { firstAfterDays: 3, everyDays: 7, max: 3 }
 */
export const RemindersSchema = z
  .strictObject({
    firstAfterDays: z.number().int().min(REMINDER_LIMITS.firstAfterDays.min).max(REMINDER_LIMITS.firstAfterDays.max),
    everyDays: z.number().int().min(REMINDER_LIMITS.everyDays.min).max(REMINDER_LIMITS.everyDays.max),
    max: z.number().int().min(REMINDER_LIMITS.max.min).max(REMINDER_LIMITS.max.max),
  })
  .meta({ id: 'Reminders' });
export type Reminders = z.infer<typeof RemindersSchema>;

/** The shortest time between two messages to one signer that `POST …/remind` allows: an hour. */
export const REMIND_INTERVAL_SECONDS = 3600;

/** The path parameters of a route about one signer of a document. */
export const SignerParamsSchema = z.object({
  documentId: idSchema('doc').meta({ param: { name: 'documentId', in: 'path' }, example: 'doc_V1StGXR8Z5jdHi6BmyTaQ7fz' }),
  signerId: SignerIdSchema.meta({ param: { name: 'signerId', in: 'path' }, example: 'tenant' }),
});

/** `POST /documents/{documentId}/signers/{signerId}/remind`'s answer: the reminder is queued for the signer's address. */
export const SignerReminderSchema = z
  .object({
    documentId: idSchema('doc'),
    signerId: SignerIdSchema,
    email: z.string(),
    queuedAt: TimestampSchema,
  })
  .meta({ id: 'SignerReminder' });
export type SignerReminder = z.infer<typeof SignerReminderSchema>;
