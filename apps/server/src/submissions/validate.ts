import {
  SUBMISSION_LIMITS,
  hasValue,
  isIsoDate,
  sameFieldValue,
  textValueIssue,
  type FieldDefinition,
  type FieldValue,
  type PageInfo,
  type SubmissionPayload,
  type SubmittedField,
} from '@signet/contract';
import type { DocumentRecord } from '../storage/types.js';
import { inspectPngDataUrl } from './png.js';

/**
 * A broken document rule: `field` is a path into the payload, such as `fields[2].value.content`.
 * A type alias rather than an interface, so that it can be passed as `ErrorDetails` as it is.
 */
export type SubmissionIssue = { field: string; reason: string };

/** The outcome of {@link checkSubmission}: a rule issue, the ids of missing required values, or `null` (acceptable). */
export type SubmissionCheck = { issue: SubmissionIssue } | { missingFields: string[] } | null;

const PNG_LIMITS = { maxBytes: SUBMISSION_LIMITS.maxImageBytes, maxSide: SUBMISSION_LIMITS.maxImageSide };
/** Absorbs binary rounding, so that a difference of exactly the tolerance (0.101 vs 0.1) is within it. */
const TOLERANCE = SUBMISSION_LIMITS.positionTolerance + 1e-9;
const MAX_SKEW_MINUTES = SUBMISSION_LIMITS.maxFutureSkewMs / 60_000;
const POSITION_KEYS = ['x', 'y', 'width', 'height'] as const;
/** `2026-11-22T10:00:00.000Z`, `2026-11-22T11:00+01:00`: a date, a time and a zone (RFC 3339 / ISO 8601). */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/**
 * The document rules of a well-formed submission (SPEC §6), checked against the document it is for: the 422s.
 * Returns the first rule issue in payload order (`submittedAt`, then `pages`, then `fields`); when there is none,
 * the ids of required fields without a value, in the document's order; otherwise `null`.
 * The checksum and the document's status are not its concern.
 * @example
 * const check = checkSubmission(payload, document, new Date());
 * if (check && 'issue' in check) {
 *   throw new ApiError('VALIDATION_ERROR', check.issue.reason, { status: 422, details: check.issue });
 * }
 */
export function checkSubmission(payload: SubmissionPayload, document: DocumentRecord, now: Date): SubmissionCheck {
  const issue = submittedAtIssue(payload.submittedAt, now) ?? pagesIssue(payload.pages, document.pageCount);
  if (issue) return { issue };

  const definitions = new Map<string, FieldDefinition>();
  for (const definition of document.fields) definitions.set(definition.id, definition);
  const submitted = new Map<string, FieldValue>();
  for (let index = 0; index < payload.fields.length; index++) {
    const field = payload.fields[index]!;
    const at = `fields[${index}]`;
    const definition = definitions.get(field.id);
    if (!definition) return issueAt(`${at}.id`, `no field "${field.id}" in this document`);
    if (submitted.has(field.id)) return issueAt(`${at}.id`, `field "${field.id}" is submitted more than once`);
    submitted.set(field.id, field.value);
    const problem = fieldIssue(field, definition, at);
    if (problem) return { issue: problem };
  }

  const missingFields = document.fields
    .filter((definition) => definition.required && !hasValue(valueOf(definition, submitted)))
    .map((definition) => definition.id);
  return missingFields.length > 0 ? { missingFields } : null;
}

function submittedAtIssue(submittedAt: string, now: Date): SubmissionIssue | null {
  const time = parseTimestamp(submittedAt);
  if (time === null) {
    const reason = 'must be an ISO 8601 timestamp with a time zone, such as 2026-11-22T10:00:00.000Z';
    return { field: 'submittedAt', reason };
  }
  if (time - now.getTime() > SUBMISSION_LIMITS.maxFutureSkewMs) {
    return { field: 'submittedAt', reason: `must not be more than ${MAX_SKEW_MINUTES} minutes in the future` };
  }
  return null;
}

/** Milliseconds since the epoch of an ISO 8601 timestamp with a zone, or null when it is not one. */
function parseTimestamp(text: string): number | null {
  const match = TIMESTAMP.exec(text);
  if (!match || !isIsoDate(match[1]!)) return null;
  const [hours, minutes, seconds] = [Number(match[2]), Number(match[3]), Number(match[4] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  let offsetMinutes = 0;
  if (!match[6]) {
    const [offsetHours, offsetRest] = [Number(match[8]), Number(match[9])];
    if (offsetHours > 23 || offsetRest > 59) return null;
    offsetMinutes = (match[7] === '-' ? -1 : 1) * (offsetHours * 60 + offsetRest);
  }
  const milliseconds = match[5] ? Math.floor(Number(`0.${match[5]}`) * 1000) : 0;
  const midnight = Date.parse(`${match[1]}T00:00:00Z`);
  return midnight + ((hours * 60 + minutes - offsetMinutes) * 60 + seconds) * 1000 + milliseconds;
}

function pagesIssue(pages: readonly PageInfo[], pageCount: number): SubmissionIssue | null {
  const seen = new Set<number>();
  for (let index = 0; index < pages.length; index++) {
    const { pageNumber } = pages[index]!;
    const field = `pages[${index}].pageNumber`;
    if (pageNumber > pageCount) {
      return { field, reason: `page ${pageNumber} is past the document's ${pageCount} pages` };
    }
    if (seen.has(pageNumber)) return { field, reason: `page ${pageNumber} is listed more than once` };
    seen.add(pageNumber);
  }
  return null;
}

/** The first rule a submitted field breaks against its definition, or null. */
function fieldIssue(field: SubmittedField, definition: FieldDefinition, at: string): SubmissionIssue | null {
  if (field.type !== definition.type) {
    return { field: `${at}.type`, reason: `field "${field.id}" is a ${definition.type} field, not ${field.type}` };
  }
  if (field.value.type !== field.type) {
    return { field: `${at}.value.type`, reason: `a ${field.type} field cannot hold a ${field.value.type} value` };
  }
  if (field.page !== definition.page) {
    return { field: `${at}.page`, reason: `field "${field.id}" is on page ${definition.page}` };
  }
  for (const key of POSITION_KEYS) {
    // Negated so that NaN is refused too.
    if (!(Math.abs(field.position[key] - definition[key]) <= TOLERANCE)) {
      return {
        field: `${at}.position.${key}`,
        reason: `must be ${definition[key]} (within ${SUBMISSION_LIMITS.positionTolerance}), as defined`,
      };
    }
  }
  if (!definition.editable) {
    // The value is the document's own prefill, so the rules for what a signer types do not apply to it.
    return sameFieldValue(field.value, definition.value)
      ? null
      : { field: `${at}.value`, reason: `field "${field.id}" is not editable; its value must be the prefilled one` };
  }
  return valueIssue(field.value, definition, `${at}.value`);
}

function valueIssue(value: FieldValue, definition: FieldDefinition, at: string): SubmissionIssue | null {
  switch (value.type) {
    case 'text':
    case 'date': {
      const reason = textValueIssue(value);
      return reason ? { field: `${at}.content`, reason } : null;
    }
    case 'signature':
    case 'initials': {
      const png = inspectPngDataUrl(value.imageData, PNG_LIMITS);
      return png.ok ? null : { field: `${at}.imageData`, reason: png.reason };
    }
    case 'checkbox':
      return definition.required && !value.checked
        ? { field: `${at}.checked`, reason: 'a required checkbox must be checked' }
        : null;
  }
}

/** The value a field ends up with: the one submitted, else the prefill of a field the signer cannot edit. */
function valueOf(definition: FieldDefinition, submitted: ReadonlyMap<string, FieldValue>): FieldValue | undefined {
  return submitted.get(definition.id) ?? (definition.editable ? undefined : definition.value);
}

function issueAt(field: string, reason: string): { issue: SubmissionIssue } {
  return { issue: { field, reason } };
}
