import { z } from '../zod.js';

/** The reason a text is not a {@link TimestampSchema} timestamp: what the submit route answers for `submittedAt`. */
export const TIMESTAMP_REASON = 'must be an ISO 8601 timestamp with a time zone, such as 2026-11-22T10:00:00.000Z';

/**
 * An ISO 8601 timestamp with a time zone (RFC 3339): a real date, a time and `Z` or `±hh:mm`, as the contract's
 * timestamps are. Seconds and their fraction may be left out (`2026-11-22T10:00Z`), as ISO 8601 allows; a time
 * without a zone is refused, for it names no instant. In the OpenAPI document: `format: date-time`.
 * @example TimestampSchema.parse('2026-11-22T11:00:00.000+01:00')
 */
export const TimestampSchema = z.union(
  [z.iso.datetime({ offset: true }), z.iso.datetime({ offset: true, precision: -1 })],
  { error: TIMESTAMP_REASON },
);
export type Timestamp = z.infer<typeof TimestampSchema>;

/**
 * Milliseconds since the epoch of a {@link TimestampSchema} timestamp, or null when `text` is not one.
 * The fraction is cut to milliseconds first: `Date.parse` is defined for exactly three digits only.
 * @example timestampMillis('2026-11-22T10:00Z') // 1795341600000
 */
export function timestampMillis(text: string): number | null {
  if (!TimestampSchema.safeParse(text).success) return null;
  return Date.parse(text.replace(/\.(\d+)/, (_, digits: string) => `.${digits.padEnd(3, '0').slice(0, 3)}`));
}
