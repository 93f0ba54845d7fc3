import { z } from '../zod.js';
import { TimestampSchema } from './timestamp.js';
import { idSchema } from '../ids.js';
import { FieldIdSchema } from './field.js';

/** Scopes a key may hold (docs/api.md, "Authentication"). */
export const SCOPES = ['documents:read', 'documents:submit', 'documents:write', 'webhooks:write'] as const;
export const ScopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof ScopeSchema>;

/** Result of `POST /sdk/validate-key` (docs/api.md, "Key validation"), sent without the envelope. */
export const KeyValidationResultSchema = z
  .object({
    valid: z.boolean(),
    organizationId: z.string().optional(),
    organizationName: z.string().optional(),
    scopes: z.array(z.string()).optional(),
    expiresAt: TimestampSchema.optional(),
    documentId: idSchema('doc').optional().meta({ description: 'A session key: the one document it works for' }),
    signerId: FieldIdSchema.optional().meta({ description: 'A session key: the signer it signs as' }),
    error: z.string().optional(),
  })
  .meta({ id: 'KeyValidationResult' });
export type KeyValidationResult = z.infer<typeof KeyValidationResultSchema>;
