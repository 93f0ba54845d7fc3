import {
  checkFieldValue,
  checkPageInfo,
  checkRenderContext,
  fieldTextStyle,
  submissionChecksum,
  fieldsOfSigner,
  submissionIssues,
  submittedFields,
  type FieldValue,
  type PageInfo,
  type RenderContext,
  type SdkDocument,
  type SubmissionPayload,
  type TextStyle,
  type AnswerCheck,
} from '@signet/contract';
import { SubmissionBuildError } from './errors.js';

/** The style a text field is reported with when the caller gives none. */
export const DEFAULT_TEXT_STYLE: TextStyle = { fontSize: 12, fontFamily: 'Helvetica', textAlign: 'left' };

type Values = Readonly<Record<string, FieldValue | undefined>>;

export interface BuildSubmissionInput {
  /**
   * The document as `getDocument` returned it. With a session key's `signerId` (several signers), only that signer's
   * fields are submitted: the other signers' fields, and the values they carry, are theirs.
   */
  document: Pick<SdkDocument, 'metadata' | 'fields' | 'signerId'>;
  /** What the signer entered, by field id: `{ type: 'text', content: 'Ada' }`, `{ type: 'checkbox', checked: true }`… */
  values: Values;
  /** How the document was shown: scale, viewport size, devicePixelRatio. */
  renderContext: RenderContext;
  /** Each page as shown: size in PDF points and rotation. */
  pages: readonly PageInfo[];
  /** Defaults to now. */
  submittedAt?: Date | string;
  /** The style each text field was shown with, by field id (default {@link DEFAULT_TEXT_STYLE}). */
  textStyles?: Readonly<Record<string, TextStyle>>;
}

/**
 * The submission payload (docs/api.md, "Submit") with its checksum: every field that has a value (entered, else its
 * prefill) in the document's order, with the document's own id, type, page and position.
 * Throws {@link SubmissionBuildError} for a value of an unknown field or a malformed value, page or render context,
 * and for any document rule the server would refuse it for (the contract's `submissionIssues`: a value of another
 * type than its field, a changed read-only field, text over the limit…), so such a payload never leaves. Required
 * fields left without a value are the server's to answer, with `missingFields`; see {@link missingRequiredFields}.
 * @example
 * const payload = await buildSubmission({ document, values: { signer_name: { type: 'text', content: 'Ada' } },
 *   renderContext: { scale: 1.5, viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 2 }, pages });
 * await client.submitDocument(payload);
 */
export async function buildSubmission(input: BuildSubmissionInput): Promise<SubmissionPayload> {
  const { document, values } = input;
  const own = fieldsOfSigner(document.fields, document.signerId);
  const ids = new Set(own.map((field) => field.id));
  for (const [id, value] of Object.entries(values)) {
    if (!ids.has(id)) {
      const reason = document.fields.some((field) => field.id === id)
        ? `field "${id}" is another signer's to fill in`
        : `no field "${id}" in document ${document.metadata.id}`;
      throw new SubmissionBuildError(id, reason);
    }
    if (value !== undefined) checked(checkFieldValue, value, id);
  }

  const unsigned = {
    documentId: document.metadata.id,
    submittedAt: timestamp(input.submittedAt),
    renderContext: checked(checkRenderContext as AnswerCheck<RenderContext>, input.renderContext, 'renderContext'),
    pages: input.pages.map((page, index) => checked(checkPageInfo as AnswerCheck<PageInfo>, page, `pages[${index}]`)),
    fields: submittedFields(own, values, (field) => input.textStyles?.[field.id] ?? fieldTextStyle(field, DEFAULT_TEXT_STYLE)),
  };
  const rules = { pageCount: document.metadata.pageCount, fields: own };
  const issue = submissionIssues(rules, unsigned).find((found) => !found.missing);
  if (issue) throw new SubmissionBuildError(issue.fieldId ?? issue.field, issue.reason);
  return { ...unsigned, checksum: await submissionChecksum(unsigned) };
}

/**
 * The ids of required fields that would have no value in a submission built from `values`, in the document's
 * order: the `missingFields` of the server's 422 for that submission (the contract's `submissionIssues`).
 * @example missingRequiredFields(document, {}) // ['signer_name', 'signature', …]
 */
export function missingRequiredFields(document: Pick<SdkDocument, 'fields' | 'signerId'>, values: Values): string[] {
  const own = fieldsOfSigner(document.fields, document.signerId);
  const fields = submittedFields(own, values, (field) => fieldTextStyle(field, DEFAULT_TEXT_STYLE));
  // No pages to check against the page count.
  const rules = { pageCount: Number.POSITIVE_INFINITY, fields: own };
  return submissionIssues(rules, { fields }).flatMap((issue) =>
    issue.missing && issue.fieldId ? [issue.fieldId] : [],
  );
}

/** `value`, when it passes the contract's check (made from its zod schema, without zod: this runs in browsers). */
function checked<T>(check: AnswerCheck<T>, value: unknown, field: string): T {
  const result = check(value);
  if (!result.success) throw new SubmissionBuildError(field, result.issues[0]?.message ?? 'invalid');
  return result.data;
}

function timestamp(submittedAt: Date | string | undefined): string {
  if (typeof submittedAt === 'string') return submittedAt;
  return (submittedAt ?? new Date()).toISOString();
}
