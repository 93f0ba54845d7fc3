import { z } from '../zod.js';
import { TIMESTAMP_REASON } from '../timestamp-text.js';

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
