import { createSdkClient, type RetryOptions } from '@signet/api';
import { documentPreviewUrl, type DeclineResult, type FieldValue, type SdkDocument, type SubmissionResult } from '@signet/contract';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useMemo, useRef, useState } from 'react';
import { useViewerStyles } from './adopt-styles.js';
import { DocumentView } from './DocumentView.js';
import { UnavailablePanel } from './UnavailablePanel.js';
import { verificationRequired } from './verification-required.js';
import { loadErrorMessage, reportFailure, unavailableReason, type UnavailableReason } from './error-message.js';
import { LocaleProvider } from './i18n/LocaleContext.js';
import { intlLocale, matchLocale } from './i18n/locales.js';
import type { ViewerMessages } from './i18n/messages.js';
import { createTranslator, prepareFormatters } from './i18n/translate.js';
import { useTranslation } from './i18n/useTranslation.js';
import { loadPagePreview } from './Page/page-preview.js';
import { prefetchPdf, preloadPdfWorker } from './pdf/load-pdf.js';
import type { SignedCopyPolling } from './signed-copy/poll-schedule.js';
import { StatusPanel } from './StatusPanel.js';
import { useLatest } from './useLatest.js';

// Most signers never prove who they are: the prompt is a chunk of its own (docs/signer-auth.md).
const VerificationPrompt = lazy(() => import('./VerificationPrompt.js'));

export interface SigningViewerProps {
  /** The document to sign, `doc_…`. */
  documentId: string;
  /** A `pk_` key allowed for this page's origin. */
  apiKey: string;
  /** Where the Signet API is (default: this page's origin). */
  baseUrl?: string;
  /**
   * The signer's language and formats: a BCP 47 tag such as `de`, `pt-BR` or `ar-EG`, shown in its language when
   * that is one of `SUPPORTED_LOCALES` and in English otherwise (default `en`). Languages other than English load
   * as a chunk of their own, beside the document's request.
   */
  locale?: string;
  /** Overrides of any text (plain strings; `{placeholders}` as in English). */
  messages?: Partial<ViewerMessages>;
  className?: string;
  /** The host's QueryClient; the viewer makes its own when none is given. */
  queryClient?: QueryClient;
  /** Retries of the client (default: 3 with backoff). */
  retry?: RetryOptions;
  /**
   * How long the completed state waits for the signed PDF, asking again with backoff (default: 1 s doubling to
   * 30 s, for ten minutes; not while the page is hidden).
   */
  signedCopyPolling?: SignedCopyPolling;
  /** The document and its PDF are loaded and the fields can be filled in. */
  onReady?(document: SdkDocument): void;
  onFieldChange?(fieldId: string, value: FieldValue): void;
  /** The submission was accepted. */
  onComplete?(result: SubmissionResult): void;
  /** The signer declined to sign, with a reason (the document is then `declined`). */
  onDecline?(result: DeclineResult): void;
  /**
   * The signed PDF is ready (after a submission, or on opening a sealed document): its download URL, which the
   * completed state also offers as a link. Once per viewer.
   * @example <SigningViewer … onSealed={(url) => setReceipt(url)} />
   */
  onSealed?(signedDocumentUrl: string): void;
  /**
   * The document can no longer be signed: the sender voided or erased it, or its `expiresAt` passed (on opening, or
   * when a submission is refused for it). The viewer says so in words; `onError` is not called for it.
   */
  onUnavailable?(reason: UnavailableReason): void;
  /** Loading or submitting failed (after the client's retries). */
  onError?(error: Error): void;
  /**
   * The signer proved who they are (docs/signer-auth.md) with an e-mailed code or an access code; the document
   * loads next.
   */
  onVerified?(method: 'email_code' | 'access_code'): void;
}

/**
 * The embeddable signing component: shows the PDF with its fields, lets the signer fill them in and sign, and
 * submits the result.
 * @example <SigningViewer documentId="doc_…" apiKey="pk_live_…" baseUrl="https://sign.example.com" onComplete={done} />
 */
export function SigningViewer({ queryClient, ...props }: SigningViewerProps) {
  const [ownClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity } } }),
  );
  return (
    <QueryClientProvider client={queryClient ?? ownClient}>
      <ViewerRoot {...props} />
    </QueryClientProvider>
  );
}

function ViewerRoot({
  documentId,
  apiKey,
  baseUrl,
  locale,
  messages: overrides,
  className,
  retry,
  signedCopyPolling,
  ...events
}: Omit<SigningViewerProps, 'queryClient'>) {
  const language = matchLocale(locale);
  const translation = useTranslation(language);
  const translator = useMemo(() => {
    if (!translation) return undefined;
    const messages = overrides ? { ...translation.messages, ...overrides } : translation.messages;
    return createTranslator(intlLocale(locale, translation.language), translation.language, messages);
  }, [translation, locale, overrides]);
  const messages = translator?.messages;
  const apiBase = baseUrl ?? globalThis.location?.origin ?? '';
  const client = useMemo(() => createSdkClient({ apiKey, baseUrl: apiBase, retry }), [apiKey, apiBase, retry]);
  const documentQuery = {
    queryKey: ['signet', 'document', apiBase, documentId, apiKey],
    // The client retries transient failures itself; the query must not multiply them.
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const document = await client.getDocument(documentId, { signal });
      // The PDF's first and last chunks are asked for now, while React renders the document's view.
      prefetchPdf(document.documentUrl, document.metadata.fileSize);
      // And page 1's preview image, which is on screen long before pdf.js has drawn the page.
      const preview = documentPreviewUrl(document.documentUrl);
      if (preview) loadPagePreview(preview);
      return document;
    },
    retry: false,
  } as const;
  // Asked for while rendering, not after the first paint (when useQuery's effect would): the document's metadata
  // is the first thing on the critical path. Deduplicated by its key, so re-renders do not ask again.
  const queryClient = useQueryClient();
  if (!queryClient.getQueryState(documentQuery.queryKey)) {
    void queryClient.prefetchQuery(documentQuery);
    // Booting pdf.js's worker (a 1 MB script) takes longer than the metadata request: it starts right behind it.
    preloadPdfWorker();
    // The locale's number and plural data load while the metadata is on its way, not on the first page's path.
    setTimeout(() => prepareFormatters(intlLocale(locale, language)), 0);
  }
  const document = useQuery(documentQuery);

  const latest = useLatest(events);
  const rootRef = useRef<HTMLDivElement>(null);
  useViewerStyles(rootRef);
  // A signer who must prove who they are is asked for a code, not told of a failure (docs/signer-auth.md).
  const verification = verificationRequired(document.error);
  useEffect(() => {
    if (document.error && !verification) reportFailure(document.error, latest.current);
  }, [document.error, verification, latest]);
  const ended = unavailableReason(document.error);

  return (
    <div ref={rootRef} className={['signet-viewer', className].filter(Boolean).join(' ')} lang={translator?.locale} dir={translator?.dir}>
      {!messages || !translator ? (
        // The language's texts are still on their way (the document's request too, most often): nothing to say yet.
        <div className="signet-centered" role="status">
          <span className="signet-spinner" aria-hidden="true" />
        </div>
      ) : document.data ? (
        <LocaleProvider translator={translator}>
          <DocumentView
            key={document.data.metadata.id}
            client={client}
            document={document.data}
            messages={messages}
            queryKey={documentQuery.queryKey}
            signedCopyPolling={signedCopyPolling}
            {...events}
          />
        </LocaleProvider>
      ) : verification ? (
        <div className="signet-centered">
          <Suspense fallback={<span className="signet-spinner" aria-hidden="true" />}>
          <VerificationPrompt
            client={client}
            documentId={documentId}
            details={verification}
            messages={messages}
            onVerified={() => {
              latest.current.onVerified?.(verification.method);
              void document.refetch();
            }}
          />
          </Suspense>
        </div>
      ) : ended ? (
        <div className="signet-centered">
          <UnavailablePanel reason={ended} messages={messages} />
        </div>
      ) : document.error ? (
        <div className="signet-centered">
          <StatusPanel
            tone="error"
            title={messages.errorTitle}
            action={
              <button type="button" className="signet-button signet-button--secondary" onClick={() => void document.refetch()}>
                {messages.retry}
              </button>
            }
          >
            {loadErrorMessage(document.error, messages)}
          </StatusPanel>
        </div>
      ) : (
        <div className="signet-centered" role="status">
          <span className="signet-spinner" aria-hidden="true" />
          {messages.loadingDocument}
        </div>
      )}
    </div>
  );
}
