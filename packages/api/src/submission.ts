import {
  FieldValueSchema,
  PageInfoSchema,
  RenderContextSchema,
  SUBMISSION_LIMITS,
  dataUrlByteLength,
  hasValue,
  sameFieldValue,
  submissionChecksum,
  textValueIssue,
  type FieldDefinition,
  type FieldValue,
  type PageInfo,
  type RenderContext,
  type SdkDocument,
  type SubmissionPayload,
  type SubmittedField,
  type TextStyle,
} from '@signet/contract';
import { SubmissionBuildError } from './errors.js';

/** The style a text field is reported with when the caller gives none. */
export const DEFAULT_TEXT_STYLE: TextStyle = { fontSize: 12, fontFamily: 'Helvetica', textAlign: 'left' };

export interface BuildSubmissionInput {
  /** The document as `getDocument` returned it. */
  document: Pick<SdkDocument, 'metadata' | 'fields'>;
  /** What the signer entered, by field id: `{ type: 'text', content: 'Ada' }`, `{ type: 'checkbox', checked: true }`… */
  values: Readonly<Record<string, FieldValue | undefined>>;
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
 * The submission payload of contract §2.5 with its checksum: every field that has a value (entered, else its
 * prefill) in the document's order, with the document's own id, type, page and position.
 * Throws {@link SubmissionBuildError} for a value of an unknown field, a value of another type than its field, a
 * changed read-only field, a malformed value, page or render context, so a malformed payload never leaves.
 * @example
 * const payload = await buildSubmission({ document, values: { signer_name: { type: 'text', content: 'Ada' } },
 *   renderContext: { scale: 1.5, viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 2 }, pages });
 * await client.submitDocument(payload);
 */
export async function buildSubmission(input: BuildSubmissionInput): Promise<SubmissionPayload> {
  const { document, values } = input;
  const definitions = new Map(document.fields.map((field) => [field.id, field]));
  for (const [id, value] of Object.entries(values)) {
    const definition = definitions.get(id);
    if (!definition) throw new SubmissionBuildError(id, `no field "${id}" in document ${document.metadata.id}`);
    if (value !== undefined) checkValue(definition, value);
  }

  const fields: SubmittedField[] = [];
  for (const definition of document.fields) {
    const value = values[definition.id] ?? definition.value;
    if (!value) continue;
    fields.push({
      id: definition.id,
      type: definition.type,
      page: definition.page,
      position: { x: definition.x, y: definition.y, width: definition.width, height: definition.height },
      value,
      ...(definition.type === 'text' ? { style: input.textStyles?.[definition.id] ?? DEFAULT_TEXT_STYLE } : {}),
    });
  }

  const unsigned = {
    documentId: document.metadata.id,
    submittedAt: timestamp(input.submittedAt),
    renderContext: checkRenderContext(input.renderContext),
    pages: checkPages(input.pages, document.metadata.pageCount),
    fields,
  };
  return { ...unsigned, checksum: await submissionChecksum(unsigned) };
}

/**
 * The ids of required fields that would have no value in a submission built from `values`, in the document's
 * order: the `missingFields` of the server's 422 for that submission.
 * @example missingRequiredFields(document, {}) // ['signer_name', 'signature', …]
 */
export function missingRequiredFields(
  document: Pick<SdkDocument, 'fields'>,
  values: Readonly<Record<string, FieldValue | undefined>>,
): string[] {
  return document.fields
    .filter((field) => field.required && !hasValue(values[field.id] ?? field.value))
    .map((field) => field.id);
}

function checkValue(definition: FieldDefinition, value: FieldValue): void {
  const parsed = FieldValueSchema.safeParse(value);
  if (!parsed.success) {
    throw new SubmissionBuildError(definition.id, parsed.error.issues[0]?.message ?? 'not a field value');
  }
  if (value.type !== definition.type) {
    throw new SubmissionBuildError(definition.id, `a ${definition.type} field cannot hold a ${value.type} value`);
  }
  if (!definition.editable) {
    if (!sameFieldValue(value, definition.value)) {
      throw new SubmissionBuildError(definition.id, 'the field is read-only; its value is the prefilled one');
    }
    return;
  }
  const textIssue = textValueIssue(value);
  if (textIssue) throw new SubmissionBuildError(definition.id, textIssue);
  if ((value.type === 'signature' || value.type === 'initials') && dataUrlByteLength(value.imageData) > SUBMISSION_LIMITS.maxImageBytes) {
    throw new SubmissionBuildError(definition.id, `the image may not exceed ${SUBMISSION_LIMITS.maxImageBytes} bytes`);
  }
}

function checkRenderContext(renderContext: RenderContext): RenderContext {
  const parsed = RenderContextSchema.safeParse(renderContext);
  if (!parsed.success) throw new SubmissionBuildError('renderContext', parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}

function checkPages(pages: readonly PageInfo[], pageCount: number): PageInfo[] {
  const seen = new Set<number>();
  return pages.map((page, index) => {
    const parsed = PageInfoSchema.safeParse(page);
    if (!parsed.success) throw new SubmissionBuildError(`pages[${index}]`, parsed.error.issues[0]?.message ?? 'invalid');
    if (page.pageNumber > pageCount) {
      throw new SubmissionBuildError(`pages[${index}]`, `page ${page.pageNumber} is past the document's ${pageCount} pages`);
    }
    if (seen.has(page.pageNumber)) throw new SubmissionBuildError(`pages[${index}]`, `page ${page.pageNumber} is listed twice`);
    seen.add(page.pageNumber);
    return parsed.data;
  });
}

function timestamp(submittedAt: Date | string | undefined): string {
  if (typeof submittedAt === 'string') return submittedAt;
  return (submittedAt ?? new Date()).toISOString();
}
