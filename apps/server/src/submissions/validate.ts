import { SUBMISSION_LIMITS, submissionIssues, type SubmissionPayload } from '@signet/contract';
import type { DocumentRecord } from '../storage/types.js';
import { inspectJpegDataUrl } from './jpeg.js';
import { inspectPngDataUrl } from './png.js';

/**
 * The outcome of {@link checkSubmission}: a broken rule (`field` a path into the payload, such as
 * `fields[2].value.content`: the 422's `details` as they are), the ids of missing required values, or `null`.
 */
export type SubmissionCheck = { issue: { field: string; reason: string } } | { missingFields: string[] } | null;

const IMAGE_LIMITS = { maxBytes: SUBMISSION_LIMITS.maxImageBytes, maxSide: SUBMISSION_LIMITS.maxImageSide };

/**
 * The server's image rule: a real PNG (or, for an image field, whose schema allows it, a JPEG) within the limits,
 * its bytes read (the contract's default reads only the size).
 */
function imageIssue(imageData: string): string | null {
  const image = imageData.startsWith('data:image/jpeg;') ? inspectJpegDataUrl(imageData, IMAGE_LIMITS) : inspectPngDataUrl(imageData, IMAGE_LIMITS);
  return image.ok ? null : image.reason;
}

/**
 * The contract's submission rules (`submissionIssues`; docs/api.md, "Submit") as the submit route answers them: the first rule
 * issue in payload order (`submittedAt`, then `pages`, then `fields`); when there is none, the ids of required fields
 * without a value, in the document's order; otherwise `null`. The checksum and the document's status are not its
 * concern.
 * @example
 * const check = checkSubmission(payload, document, new Date());
 * if (check && 'issue' in check) {
 *   throw new ApiError('VALIDATION_ERROR', check.issue.reason, { status: 422, details: check.issue });
 * }
 */
export function checkSubmission(payload: SubmissionPayload, document: DocumentRecord, now: Date): SubmissionCheck {
  const issues = submissionIssues(document, payload, { now, imageIssue });
  const rule = issues.find((issue) => !issue.missing);
  if (rule) return { issue: { field: rule.field, reason: rule.reason } };
  const missingFields = issues.flatMap((issue) => (issue.missing && issue.fieldId ? [issue.fieldId] : []));
  return missingFields.length > 0 ? { missingFields } : null;
}
