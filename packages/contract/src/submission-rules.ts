import { sameFieldValue } from './field-values.js';
import { hasValue } from './field-rules.js';
import { fieldValueProblem, isTextType } from './field-validation.js';
import type { FieldDefinition, FieldValue, TextStyle } from './schemas/field.js';
import type { PageInfo, SubmittedField } from './schemas/submission.js';
import { SUBMISSION_LIMITS } from './submission-limits.js';
import { timestampMillis, TIMESTAMP_REASON } from './timestamp-text.js';

/**
 * One document rule (docs/api.md, "Submit") a submission breaks. `field` is a path into the payload (`submittedAt`,
 * `pages[2].pageNumber`, `fields[1].value.content`); `fieldId` names the document's field it is about, if one.
 * A required field left without a value is `missing` (its `field` is `fields`): the server answers the first issue
 * that is not, else the ids of all that are, as `missingFields`.
 */
export interface SubmissionIssue {
  field: string;
  reason: string;
  fieldId?: string;
  missing?: true;
}

/** The document a submission is checked against: the server's record and the client's `SdkDocument` both fit. */
export interface SubmissionRulesDocument {
  pageCount: number;
  fields: readonly FieldDefinition[];
}

/** What of a payload the rules read; `submittedAt` and `pages` are checked when present. */
export interface SubmissionRulesPayload {
  submittedAt?: string;
  pages?: readonly PageInfo[];
  fields: readonly SubmittedField[];
}

export interface SubmissionRulesOptions {
  /** The clock `submittedAt` may be at most `SUBMISSION_LIMITS.maxFutureSkewMs` ahead of. Default: now. */
  now?: Date;
  /**
   * What is wrong with a signature, initials or image field's image (a PNG data URL, or a JPEG one for `image`), or
   * null. The default checks its decoded size only, in any JavaScript runtime; the server passes its full inspection.
   */
  imageIssue?(imageData: string): string | null;
}

/** Absorbs binary rounding, so that a difference of exactly the tolerance (0.101 vs 0.1) is within it. */
const TOLERANCE = SUBMISSION_LIMITS.positionTolerance + 1e-9;
const POSITION_KEYS = ['x', 'y', 'width', 'height'] as const;
const MAX_SKEW_MINUTES = SUBMISSION_LIMITS.maxFutureSkewMs / 60_000;

/**
 * Every document rule a well-formed submission breaks against the document it is for (docs/api.md, "Submit"): in payload order
 * (`submittedAt`, `pages`, then each field's first broken rule), then the required fields without a value, in the
 * document's order. Empty when the server would accept it. The one set of rules of the server's 422s, the client's
 * `buildSubmission` and `missingRequiredFields`, and the viewer's count of required fields; the checksum and the
 * document's status are not its concern.
 * @example
 * const issues = submissionIssues({ pageCount: 2, fields }, payload, { now: new Date() });
 * const issue = issues.find((issue) => !issue.missing);
 * if (issue) throw new ApiError('VALIDATION_ERROR', issue.reason, { status: 422, details: { field: issue.field, reason: issue.reason } });
 */
export function submissionIssues(
  document: SubmissionRulesDocument,
  payload: SubmissionRulesPayload,
  options: SubmissionRulesOptions = {},
): SubmissionIssue[] {
  const issues: SubmissionIssue[] = [];
  if (payload.submittedAt !== undefined) {
    const reason = submittedAtIssue(payload.submittedAt, options.now ?? new Date());
    if (reason) issues.push({ field: 'submittedAt', reason });
  }
  if (payload.pages) issues.push(...pageIssues(payload.pages, document.pageCount));

  const definitions = new Map(document.fields.map((definition) => [definition.id, definition]));
  const submitted = new Map<string, FieldValue>();
  const imageIssue = options.imageIssue;
  payload.fields.forEach((field, index) => {
    const at = `fields[${index}]`;
    const definition = definitions.get(field.id);
    const fieldId = field.id;
    if (!definition) {
      issues.push({ field: `${at}.id`, reason: `no field "${field.id}" in this document`, fieldId });
    } else if (submitted.has(field.id)) {
      issues.push({ field: `${at}.id`, reason: `field "${field.id}" is submitted more than once`, fieldId });
    } else {
      submitted.set(field.id, field.value);
      const issue = fieldIssue(field, definition, at, imageIssue);
      if (issue) issues.push({ ...issue, fieldId });
    }
  });

  for (const definition of document.fields) {
    // A field the signer cannot edit keeps its prefill when the payload leaves it out.
    const value = submitted.get(definition.id) ?? (definition.editable ? undefined : definition.value);
    if (definition.required && !hasValue(value)) {
      const reason = `required field "${definition.id}" has no value`;
      issues.push({ field: 'fields', reason, fieldId: definition.id, missing: true });
    }
  }
  return issues;
}

/**
 * Whether a field's value is text drawn in a font, and so carries its `style`: text, and the types typed like it.
 * @example isTypedText('email') // true; isTypedText('date') // false
 */
export function isTypedText(type: FieldDefinition['type']): boolean {
  return type === 'text' || type === 'number' || isTextType(type);
}

/**
 * The fields a submission carries for `values` (what the signer entered, by field id): every field with a value,
 * entered or else prefilled, in the document's order, with the document's own id, type, page and position, and
 * `styleOf` its style for a field of typed text. The rules are {@link submissionIssues}'s to check.
 * @example submittedFields(document.fields, { signer_name: { type: 'text', content: 'Ada' } }, () => style)
 */
export function submittedFields(
  fields: readonly FieldDefinition[],
  values: Readonly<Record<string, FieldValue | undefined>>,
  styleOf: (definition: FieldDefinition) => TextStyle,
): SubmittedField[] {
  const submitted: SubmittedField[] = [];
  for (const definition of fields) {
    const value = values[definition.id] ?? definition.value;
    if (!value) continue;
    const { id, type, page, x, y, width, height } = definition;
    submitted.push({
      id,
      type,
      page,
      position: { x, y, width, height },
      value,
      ...(isTypedText(type) ? { style: styleOf(definition) } : {}),
    });
  }
  return submitted;
}

function submittedAtIssue(submittedAt: string, now: Date): string | null {
  const time = timestampMillis(submittedAt);
  if (time === null) return TIMESTAMP_REASON;
  if (time - now.getTime() > SUBMISSION_LIMITS.maxFutureSkewMs) {
    return `must not be more than ${MAX_SKEW_MINUTES} minutes in the future`;
  }
  return null;
}

function pageIssues(pages: readonly PageInfo[], pageCount: number): SubmissionIssue[] {
  const issues: SubmissionIssue[] = [];
  const seen = new Set<number>();
  pages.forEach(({ pageNumber }, index) => {
    const field = `pages[${index}].pageNumber`;
    if (pageNumber > pageCount) {
      issues.push({ field, reason: `page ${pageNumber} is past the document's ${pageCount} pages` });
    } else if (seen.has(pageNumber)) {
      issues.push({ field, reason: `page ${pageNumber} is listed more than once` });
    }
    seen.add(pageNumber);
  });
  return issues;
}

/** The first rule a submitted field breaks against its definition, or null. */
function fieldIssue(
  field: SubmittedField,
  definition: FieldDefinition,
  at: string,
  imageIssue: ((imageData: string) => string | null) | undefined,
): SubmissionIssue | null {
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
      const reason = `must be ${definition[key]} (within ${SUBMISSION_LIMITS.positionTolerance}), as defined`;
      return { field: `${at}.position.${key}`, reason };
    }
  }
  if (!definition.editable) {
    // The value is the document's own prefill, so the rules for what a signer enters do not apply to it.
    return sameFieldValue(field.value, definition.value)
      ? null
      : { field: `${at}.value`, reason: `field "${field.id}" is not editable; its value must be the prefilled one` };
  }
  if (field.value.type === 'checkbox') {
    return definition.required && !field.value.checked
      ? { field: `${at}.value.checked`, reason: 'a required checkbox must be checked' }
      : null;
  }
  const problem = fieldValueProblem(definition, field.value, imageIssue);
  return problem ? { field: `${at}.value.${problem.member}`, reason: problem.reason } : null;
}
