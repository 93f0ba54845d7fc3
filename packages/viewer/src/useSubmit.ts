import { buildSubmission, newIdempotencyKey, type SdkClient } from '@signet/api';
import type { FieldValue, RenderContext, PageInfo, SdkDocument, SubmissionPayload, SubmissionResult, TextStyle } from '@signet/contract';
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';

export interface SubmitInput {
  values: Readonly<Record<string, FieldValue | undefined>>;
  renderContext: RenderContext;
  pages: PageInfo[];
  textStyles: Record<string, TextStyle>;
}

/**
 * Submits what is on screen. The client retries transient failures with one `Idempotency-Key`; when the signer
 * presses Submit again after a failure without changing anything, the same payload goes with the same key, so no
 * path creates a second submission.
 */
export function useSubmit(client: SdkClient, document: SdkDocument) {
  const prepared = useRef<{ values: SubmitInput['values']; payload: SubmissionPayload; key: string } | null>(null);
  const mutation = useMutation<SubmissionResult & { payload: SubmissionPayload }, Error, SubmitInput>({
    mutationFn: async (input) => {
      if (prepared.current?.values !== input.values) {
        const payload = await buildSubmission({ document, ...input });
        prepared.current = { values: input.values, payload, key: newIdempotencyKey() };
      }
      const { payload, key } = prepared.current;
      const result = await client.submitDocument(payload, { idempotencyKey: key });
      return { ...result, payload };
    },
  });
  /** The field ids of the payload last sent, in its order (to resolve a 422's `fields[n]`). */
  const submittedFieldIds = () => prepared.current?.payload.fields.map((field) => field.id) ?? [];
  return { mutation, submittedFieldIds };
}
