import { describe, expect, it } from 'vitest';
import { z } from '../zod.js';
import { SubmissionPayloadSchema } from './submission.js';
import { timestampMillis } from '../timestamp-text.js';
import { TimestampSchema } from './timestamp.js';

describe('TimestampSchema', () => {
  // Every form the submit route took before the schema did is in the server's validate.test.ts; these are the edges.
  it('takes ISO 8601 with a zone: seconds and their fraction optional, any number of fraction digits', () => {
    for (const text of ['2026-11-22T10:00Z', '2026-11-22T10:00+05:30', '2026-11-22T10:00:00.1234567891Z', '2000-02-29T00:00:00Z']) {
      expect(TimestampSchema.safeParse(text).success, text).toBe(true);
    }
  });

  it('refuses a time without a zone, a date alone, a basic-format offset and a day that does not exist', () => {
    for (const text of ['2026-11-22T10:00', '2026-11-22', '20261122T100000Z', '2026-11-22T10:00:00-0500', '2100-02-29T00:00:00Z']) {
      const result = TimestampSchema.safeParse(text);
      expect(result.error?.issues.map((issue) => issue.message), text).toEqual([
        'must be an ISO 8601 timestamp with a time zone, such as 2026-11-22T10:00:00.000Z',
      ]);
    }
  });

  it('shows its format in the JSON Schema, as does the payload’s submittedAt', () => {
    const timestamp = z.toJSONSchema(TimestampSchema) as { anyOf: unknown[] };
    expect(timestamp.anyOf[0]).toMatchObject({ type: 'string', format: 'date-time' });
    expect(z.toJSONSchema(SubmissionPayloadSchema.shape.submittedAt)).toMatchObject({ type: 'string', format: 'date-time' });
  });
});

describe('timestampMillis', () => {
  it('reads the instant, whatever the zone, seconds and fraction', () => {
    const instant = Date.UTC(2026, 10, 22, 10, 0, 0);
    expect(timestampMillis('2026-11-22T10:00Z')).toBe(instant);
    expect(timestampMillis('2026-11-22T11:00:00+01:00')).toBe(instant);
    expect(timestampMillis('2026-11-22T05:30:00.1-04:30')).toBe(instant + 100);
    expect(timestampMillis('2026-11-22T10:00:00.123999999Z')).toBe(instant + 123);
  });

  it('is null for text that is not a timestamp', () => {
    expect(timestampMillis('2026-11-22T10:00:00')).toBeNull();
    expect(timestampMillis('1764000000000')).toBeNull();
  });
});
