import { fieldsOfSigner, type FieldValue, type SdkDocument, type SubmissionPayload } from '@signet/contract';
import { completeValues } from '@signet/server/testing';
import { buildSubmission } from '../submission.js';

/**
 * A submission of `document` built by this package's own builder: every required field (of the session key's signer,
 * when there is one) filled unless `values` says.
 */
export function payloadFor(
  document: SdkDocument,
  values: Record<string, FieldValue | undefined> = completeValues(fieldsOfSigner(document.fields, document.signerId)),
): Promise<SubmissionPayload> {
  return buildSubmission({
    document,
    values,
    renderContext: { scale: 1.5, viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 2 },
    pages: Array.from({ length: document.metadata.pageCount }, (_, index) => ({ pageNumber: index + 1, width: 612, height: 792, rotation: 0 })),
  });
}
