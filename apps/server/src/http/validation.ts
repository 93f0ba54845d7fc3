import type { z } from 'zod';
import { ApiError } from '../errors.js';

/** Writes a zod issue path as the payload path users know: `fields[2].value.content`. */
export function issuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** The 400 `VALIDATION_ERROR` for the first issue of a failed parse, naming its field. */
export function zodValidationError(error: z.ZodError, fallbackField = 'body'): ApiError {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issuePath(issue.path) : fallbackField;
  const reason = issue?.message ?? 'is invalid';
  return new ApiError('VALIDATION_ERROR', `Invalid ${field}: ${reason}`, { details: { field, reason } });
}

/**
 * Parses `value` with `schema` or throws the 400 for its first issue.
 * @example const payload = parseOrThrow(SubmissionPayloadSchema, await c.req.json())
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, fallbackField?: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw zodValidationError(result.error, fallbackField);
  return result.data;
}
