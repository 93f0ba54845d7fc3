import { z } from '../zod.js';
import { idSchema } from '../ids.js';
import { FieldDefinitionSchema, FieldIdSchema, FieldValueSchema } from './field.js';
import { TimestampSchema } from './timestamp.js';
import { FieldDefinitionListSchema } from './document.js';
import { BuilderSessionSchema, CreateBuilderSessionRequestSchema } from './drafts.js';
import { MAX_SIGNERS, SignerIdSchema, SignerLocaleSchema, SigningOrderSchema, signerAuthIssues, signerAuthMembers } from './signers.js';
import { DeliverySchema, RemindersSchema } from './delivery.js';

/*
 * Templates (docs/templates.md): a PDF with its fields and the roles that fill them in, prepared once and sent many
 * times. A document made from one copies the template's current version; editing the template later never changes
 * it.
 */

/** Longest template name. */
export const TEMPLATE_NAME_MAX_LENGTH = 200;
/** A template's default lifetime for the documents made from it, in days (as `expiresAt`: at most a year). */
export const TEMPLATE_EXPIRY_DAYS = { min: 1, max: 365 } as const;

/** A role of a template: who fills in its fields, bound to a signer when a document is made from it. */
export const TemplateRoleSchema = z
  .strictObject({
    id: SignerIdSchema.meta({ description: "The role's id: the `signerId` of its fields, and the signer's id in each document" }),
    name: z.string().trim().min(1).max(200).meta({ description: 'What the author calls it: "Tenant", "Landlord"' }),
    order: z.number().int().min(1).max(MAX_SIGNERS).optional().meta({ description: 'Its turn in a sequential signing order (default 1)' }),
  })
  .meta({ id: 'TemplateRole' });
export type TemplateRole = z.infer<typeof TemplateRoleSchema>;

/** A template's roles, each id once. */
export const TemplateRoleListSchema = z
  .array(TemplateRoleSchema)
  .min(1)
  .max(MAX_SIGNERS)
  .superRefine((roles, ctx) => {
    const seen = new Set<string>();
    roles.forEach((role, index) => {
      if (seen.has(role.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate role id "${role.id}"` });
      seen.add(role.id);
    });
  });

export const TemplateNameSchema = z.string().trim().min(1).max(TEMPLATE_NAME_MAX_LENGTH);
export const ExpiresInDaysSchema = z.number().int().min(TEMPLATE_EXPIRY_DAYS.min).max(TEMPLATE_EXPIRY_DAYS.max);

/** The path parameter of every route about one template. */
export const TemplateIdParamsSchema = z.object({
  templateId: idSchema('tpl').meta({ param: { name: 'templateId', in: 'path' }, example: 'tpl_K7mWq2ZxR9tLp4NvB8cYd3Hs' }),
});

/** A template in a list: what tells it apart, without its fields. */
export const TemplateSummarySchema = z
  .object({
    id: idSchema('tpl'),
    name: z.string(),
    filename: z.string(),
    pageCount: z.number().int().min(1),
    version: z.number().int().min(1),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'TemplateSummary' });
export type TemplateSummary = z.infer<typeof TemplateSummarySchema>;

/**
 * A template (`GET /templates/{templateId}`): its current version (also the `ETag`, quoted), its PDF, fields and
 * roles, and the `documentUrl` of its PDF for a builder.
 */
export const TemplateSchema = TemplateSummarySchema.extend({
  fileSize: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  fields: z.array(FieldDefinitionSchema),
  roles: z
    .array(TemplateRoleSchema.required())
    .optional()
    .meta({ description: 'Absent on a template whose documents have one signer, not named in advance' }),
  signingOrder: SigningOrderSchema.optional().meta({ description: 'Present when the template has roles' }),
  expiresInDays: z.number().int().optional().meta({ description: 'When present, each document made from it expires this many days after' }),
  documentUrl: z.string().meta({ description: 'The PDF, granted by a token as a document\'s `documentUrl`' }),
}).meta({ id: 'Template' });
export type Template = z.infer<typeof TemplateSchema>;

/**
 * `PUT /templates/{templateId}`: its whole content (as a builder saves it), making a new version. `name` and
 * `expiresInDays` are kept when left out; `expiresInDays: null` removes the default.
 */
export const UpdateTemplateRequestSchema = z
  .strictObject({
    name: TemplateNameSchema.optional(),
    fields: FieldDefinitionListSchema,
    roles: TemplateRoleListSchema.optional(),
    signingOrder: SigningOrderSchema.optional(),
    expiresInDays: ExpiresInDaysSchema.nullable().optional(),
  })
  .meta({ id: 'UpdateTemplateRequest' });
export type UpdateTemplateRequest = z.infer<typeof UpdateTemplateRequestSchema>;

/** A role bound to a person, in `POST /templates/{templateId}/documents`. */
export const TemplateSignerSchema = z
  .strictObject({
    role: SignerIdSchema.meta({ description: "One of the template's role ids" }),
    name: z.string().trim().min(1).max(200),
    email: z.email().max(320).optional(),
    locale: SignerLocaleSchema.optional(),
    ...signerAuthMembers,
  })
  .superRefine((signer, ctx) => {
    const auth = signerAuthIssues(signer);
    if (auth) ctx.addIssue({ code: 'custom', path: [auth.path], message: auth.message });
  })
  .meta({ id: 'TemplateSigner' });
export type TemplateSigner = z.infer<typeof TemplateSignerSchema>;

/**
 * `POST /templates/{templateId}/documents`: each role bound to a signer (every role once; none on a template
 * without roles), prefilled values by field id, and what may differ from the template's defaults.
 */
export const CreateTemplateDocumentRequestSchema = z
  .strictObject({
    signers: z.array(TemplateSignerSchema).min(1).max(MAX_SIGNERS).optional(),
    values: z
      .record(FieldIdSchema, FieldValueSchema)
      .optional()
      .meta({ description: "Prefilled values by field id, checked by each field's rules; a read-only field of the template shows its value to the signer, who cannot change it" }),
    signingOrder: SigningOrderSchema.optional().meta({ description: "Default: the template's" }),
    expiresAt: z.string().optional().meta({ description: "ISO 8601 time with a zone, at most a year ahead. Default: the template's `expiresInDays` from now, or none" }),
    filename: z.string().max(1000).optional().meta({ description: "Default: the template's" }),
    draft: z.boolean().optional().meta({ description: '`true`: a draft its author may still change before sending it (docs/api.md, "Drafts")' }),
    delivery: DeliverySchema.optional().meta({ description: '`email`: Signet e-mails each signer with an `email` a link to sign when their turn comes (docs/email.md). Default `none`' }),
    reminders: RemindersSchema.optional().meta({ description: 'Only with `delivery: "email"`: reminders to the signers who have not signed (docs/email.md)' }),
  })
  .meta({ id: 'CreateTemplateDocumentRequest' });
export type CreateTemplateDocumentRequest = z.infer<typeof CreateTemplateDocumentRequestSchema>;

/** Where a document came from: the template and the version it copied. */
export const TemplateOriginSchema = z
  .object({ id: idSchema('tpl'), version: z.number().int().min(1) })
  .meta({ id: 'TemplateOrigin' });
export type TemplateOrigin = z.infer<typeof TemplateOriginSchema>;

/** `DELETE /templates/{templateId}`'s answer. Documents made from it are kept. */
export const DeletedTemplateSchema = z.object({ id: idSchema('tpl'), deleted: z.literal(true) }).meta({ id: 'DeletedTemplate' });
export type DeletedTemplate = z.infer<typeof DeletedTemplateSchema>;

/** A builder session key of a template: like a draft's, bound to the template instead. */
export const TemplateBuilderSessionSchema = BuilderSessionSchema.omit({ documentId: true, allowSend: true })
  .extend({ templateId: idSchema('tpl') })
  .meta({ id: 'TemplateBuilderSession' });
export type TemplateBuilderSession = z.infer<typeof TemplateBuilderSessionSchema>;

/** `POST /templates/{templateId}/builder-sessions`'s answer: the record and the `pk_` key itself, shown this once. */
export const CreatedTemplateBuilderSessionSchema = TemplateBuilderSessionSchema.extend({
  key: z.string().regex(/^pk_[A-Za-z0-9]{32,128}$/),
}).meta({ id: 'CreatedTemplateBuilderSession' });
export type CreatedTemplateBuilderSession = z.infer<typeof CreatedTemplateBuilderSessionSchema>;

/** `POST /templates/{templateId}/builder-sessions`: where the key may be used from, and for how long. */
export const CreateTemplateBuilderSessionRequestSchema = CreateBuilderSessionRequestSchema.omit({ allowSend: true }).meta({
  id: 'CreateTemplateBuilderSessionRequest',
});
export type CreateTemplateBuilderSessionRequest = z.infer<typeof CreateTemplateBuilderSessionRequestSchema>;
