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

/**
 * `details` of the issue a failed parse is answered with: the first unknown member, if any (a misspelt member also
 * leaves the one it meant missing, and the unknown one is the cause), named by its own path (`fields[2].requried`,
 * where zod names the object holding it); else the first issue. `prefix` is the path of the value parsed, within
 * the request (`['fields']` for the `fields` part of an upload); `fallbackField` names a value at the top.
 * @example issueDetails(error, ['fields']) // { field: 'fields[2].requried', reason: 'received unknown member "requried"; …' }
 */
export function issueDetails(
  error: z.ZodError,
  prefix: ReadonlyArray<PropertyKey> = [],
  fallbackField = 'body',
): { field: string; reason: string } {
  const unknown = error.issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown) {
    const name = unknown.keys[0]!;
    return { field: issuePath([...prefix, ...unknown.path, name]), reason: unknownMemberReason(name) };
  }
  const issue = error.issues[0];
  const path = [...prefix, ...(issue?.path ?? [])];
  return { field: path.length > 0 ? issuePath(path) : fallbackField, reason: issue?.message ?? 'is invalid' };
}

/** Why an unknown member is refused: requests are strict, so a misspelt rule is an error, not a rule left out. */
export function unknownMemberReason(name: string): string {
  return `received unknown member ${JSON.stringify(name)}; members not in the schema are refused, not ignored`;
}

/** The 400 `VALIDATION_ERROR` for a failed parse, naming its field (see {@link issueDetails}). */
export function zodValidationError(error: z.ZodError, fallbackField = 'body'): ApiError {
  const { field, reason } = issueDetails(error, [], fallbackField);
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
