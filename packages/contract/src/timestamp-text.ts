import { checkTimestamp } from './answer-checks.generated.js';

/** The reason a text is not a {@link TimestampSchema} timestamp: what the submit route answers for `submittedAt`. */
export const TIMESTAMP_REASON = 'must be an ISO 8601 timestamp with a time zone, such as 2026-11-22T10:00:00.000Z';

/**
 * Milliseconds since the epoch of a `TimestampSchema` timestamp, or null when `text` is not one.
 * The fraction is cut to milliseconds first: `Date.parse` is defined for exactly three digits only.
 * @example timestampMillis('2026-11-22T10:00Z') // 1795341600000
 */
export function timestampMillis(text: string): number | null {
  if (!checkTimestamp(text).success) return null;
  return Date.parse(text.replace(/\.(\d+)/, (_, digits: string) => `.${digits.padEnd(3, '0').slice(0, 3)}`));
}
