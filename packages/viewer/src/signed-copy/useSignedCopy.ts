import { SigningApiError, type SdkClient } from '@signet/api';
import type { SdkDocument } from '@signet/contract';
import { useQuery, useQueryClient, type Query, type QueryKey } from '@tanstack/react-query';
import { signedCopyPollDelay, type SignedCopyPolling } from './poll-schedule.js';

/** Where the signer's signed PDF stands: being sealed, ready at `url`, or not coming to this page in time. */
export type SignedCopy = { state: 'preparing' } | { state: 'ready'; url: string } | { state: 'unavailable' };

/** How many times a query's state says it was asked (answers and failures). */
function askedOf(state: Pick<Query['state'], 'dataUpdateCount' | 'errorUpdateCount'> | undefined): number {
  return (state?.dataUpdateCount ?? 0) + (state?.errorUpdateCount ?? 0);
}

/** The wait before the next ask of `query`, or `false` when it has its URL or has asked long enough. */
function nextAsk(query: Query<SdkDocument, Error, SdkDocument, QueryKey>, polling: SignedCopyPolling | undefined): number | false {
  const { data, error } = query.state;
  if (data?.signedDocumentUrl) return false;
  const retryAfterMs = error instanceof SigningApiError ? error.retryAfterMs : undefined;
  return signedCopyPollDelay(askedOf(query.state), polling, retryAfterMs);
}

/**
 * The signed copy of a completed document (call it once the document is completed): `GET /sdk/documents/{id}` is
 * asked again, with backoff, until its answer carries `signedDocumentUrl`. TanStack Query runs the timer: no asks
 * while the page is hidden, one at once when it shows again, none after unmount (an ask in flight is aborted).
 * @example const copy = useSignedCopy({ client, document, queryKey: [...documentKey, 'signed-copy'] });
 */
export function useSignedCopy({
  client,
  document,
  queryKey,
  polling,
}: {
  client: SdkClient;
  /** The document as the viewer has it: the first answer (its `signedDocumentUrl`, if sealed, ends the wait at once). */
  document: SdkDocument;
  /** This document's signed copy among the host's queries. */
  queryKey: QueryKey;
  polling?: SignedCopyPolling;
}): SignedCopy {
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => client.getDocument(document.metadata.id, { signal }),
    // What is on screen counts as the first answer, so the first ask waits a full delay (sealing takes a moment).
    initialData: document,
    refetchOnMount: false,
    refetchInterval: (current) => nextAsk(current, polling),
    refetchIntervalInBackground: false,
    // The ask that a hidden page skipped is made as soon as it shows again (the skipped tick alone could wait 30 s).
    refetchOnWindowFocus: (current) => nextAsk(current, polling) !== false,
    staleTime: 0,
    // The client retries transient failures itself; the schedule above paces everything else.
    retry: false,
    // Every answer re-renders, even one equal to the last: the count of asks decides when to stop waiting.
    notifyOnChangeProps: ['data', 'dataUpdatedAt', 'errorUpdatedAt'],
  });
  const queryClient = useQueryClient();
  const url = query.data?.signedDocumentUrl;
  if (url) return { state: 'ready', url };
  const asked = askedOf(queryClient.getQueryState(queryKey));
  return signedCopyPollDelay(asked, polling) === false ? { state: 'unavailable' } : { state: 'preparing' };
}
