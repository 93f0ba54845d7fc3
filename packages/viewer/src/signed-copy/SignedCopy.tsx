import type { SdkClient } from '@signet/api';
import type { SdkDocument } from '@signet/contract';
import type { QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ViewerMessages } from '../i18n/messages.js';
import { useLatest } from '../useLatest.js';
import type { SignedCopyPolling } from './poll-schedule.js';
import { SignedCopyPreparing } from './SignedCopyPreparing.js';
import { useSignedCopy } from './useSignedCopy.js';

/**
 * The completed state's offer of the signed PDF: a calm "preparing" line while the server seals the document, then
 * a download link (the server answers it as an attachment), or word that the sender will have it.
 */
export function SignedCopy({
  client,
  document,
  queryKey,
  polling,
  messages,
  onSealed,
}: {
  client: SdkClient;
  document: SdkDocument;
  queryKey: QueryKey;
  polling?: SignedCopyPolling;
  messages: Pick<ViewerMessages, 'signedCopyPreparing' | 'signedCopyDownload' | 'signedCopyUnavailable'>;
  onSealed?(signedDocumentUrl: string): void;
}) {
  const copy = useSignedCopy({ client, document, queryKey, polling });
  const url = copy.state === 'ready' ? copy.url : null;
  const latest = useLatest(onSealed);
  useEffect(() => {
    if (url) latest.current?.(url);
  }, [url, latest]);

  if (copy.state === 'ready') {
    return (
      <a className="signet-button signet-button--primary signet-download" href={copy.url} download>
        <DownloadIcon />
        {messages.signedCopyDownload}
      </a>
    );
  }
  if (copy.state === 'unavailable') return <p className="signet-signed-copy signet-signed-copy--unavailable">{messages.signedCopyUnavailable}</p>;
  return <SignedCopyPreparing text={messages.signedCopyPreparing} />;
}

function DownloadIcon() {
  return (
    <svg className="signet-download-icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M10 3v9m0 0-3.5-3.5M10 12l3.5-3.5M4 14.5V16a1 1 0 0 0 1 1h10a1 1 0 0 0 1-1v-1.5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
