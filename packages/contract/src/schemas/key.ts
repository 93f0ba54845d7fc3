import { z } from '../zod.js';
import { TimestampSchema } from './timestamp.js';

/** Scopes a key may hold (contract §2.3 and SPEC §2). */
export const SCOPES = ['documents:read', 'documents:submit', 'documents:write', 'webhooks:write'] as const;
export const ScopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof ScopeSchema>;

/** Result of `POST /sdk/validate-key` (contract §2.3), sent without the envelope. */
export const KeyValidationResultSchema = z
  .object({
    valid: z.boolean(),
    organizationId: z.string().optional(),
    organizationName: z.string().optional(),
    scopes: z.array(z.string()).optional(),
    expiresAt: TimestampSchema.optional(),
    error: z.string().optional(),
  })
  .meta({ id: 'KeyValidationResult' });
export type KeyValidationResult = z.infer<typeof KeyValidationResultSchema>;
