import { createBuilderClient, type ManagedDocument, type RetryOptions } from '@signet/api';
import { documentPreviewUrl, type FieldDefinition, type FieldType } from '@signet/contract';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useViewerStyles } from '../adopt-styles.js';
import { matchLocale, textDirection } from '../i18n/locales.js';
import { loadPagePreview } from '../Page/page-preview.js';
import { prefetchPdf, preloadPdfWorker } from '../pdf/load-pdf.js';
import { StatusPanel } from '../StatusPanel.js';
import { useLatest } from '../useLatest.js';
import { useBuilderMessages } from './builder-locales.js';
import { BuilderView } from './BuilderView.js';
import { builderCss } from './styles.js';
import { templateBuilderClient } from './template-client.js';

/** What the builder tells its host. */
export interface SigningBuilderEvents {
  /** The fields changed (an edit, undo or redo): all of them, as they are now. */
  onChange?(fields: FieldDefinition[]): void;
  /** A change was saved: the draft's new version. */
  onSave?(result: { version: number }): void;
  /** The draft was sent: the document, now signable. */
  onSend?(document: ManagedDocument): void;
  /** Loading, saving or sending failed (a conflict too: `PRECONDITION_FAILED`). */
  onError?(error: Error): void;
}

export interface SigningBuilderProps extends SigningBuilderEvents {
  /** The draft to edit, `doc_…` (or give `templateId`). */
  documentId?: string;
  /**
   * The template to edit, `tpl_…`, instead of a draft: its roles are shown where a draft's signers are, and each save
   * is a new version (docs/templates.md). A template is not sent: `allowSend` does not apply.
   */
  templateId?: string;
  /**
   * A builder session key of this draft (`POST /documents/{id}/builder-sessions`) or template
   * (`POST /templates/{id}/builder-sessions`), minted by the host's backend.
   */
  apiKey: string;
  /** Where the Signet API is (default: this page's origin). */
  baseUrl?: string;
  /** The field types the palette offers (default: all twelve). */
  fieldTypes?: readonly FieldType[];
  /** The ids of the draft's signers fields may be given to (default: all of them). */
  signers?: readonly string[];
  /** Fields to start from instead of the draft's (saved like any change). */
  initialFields?: FieldDefinition[];
  /** Shows a Send button (the key must have been minted with `allowSend`; otherwise sending is refused, in words). */
  allowSend?: boolean;
  /**
   * Snaps a dragged or resized field to the lines, boxes and text baselines printed on its page and to the other
   * fields' edges and centres, with guides (default: true). Alt held while dragging places freely.
   */
  snap?: boolean;
  /** The author's language: a BCP 47 tag, shown in one of the viewer's ten languages (English otherwise). */
  locale?: string;
  className?: string;
  /** The host's QueryClient; the builder makes its own when none is given. */
  queryClient?: QueryClient;
  /** Retries of the client (default: 3 with backoff). */
  retry?: RetryOptions;
}

/**
 * The embeddable authoring component: draws a draft's PDF and lets the author place, move, resize and edit its
 * fields with pointer or keyboard, saves every change (debounced, `If-Match`) and sends the draft when the host allows.
 * Its own entry (`@signet/viewer/builder`), so the signing viewer's bundle does not carry it.
 * @example <SigningBuilder documentId="doc_…" apiKey={builderKey} baseUrl="https://sign.example.com" allowSend onSend={done} />
 * @example <SigningBuilder templateId="tpl_…" apiKey={templateBuilderKey} baseUrl="https://sign.example.com" />
 */
export function SigningBuilder({ queryClient, ...props }: SigningBuilderProps) {
  const [ownClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity } } }),
  );
  return (
    <QueryClientProvider client={queryClient ?? ownClient}>
      <BuilderRoot {...props} />
    </QueryClientProvider>
  );
}

function BuilderRoot({ documentId, templateId, apiKey, baseUrl, locale, className, retry, allowSend = false, ...rest }: Omit<SigningBuilderProps, 'queryClient'>) {
  const language = matchLocale(locale);
  const messages = useBuilderMessages(language);
  const apiBase = baseUrl ?? globalThis.location?.origin ?? '';
  const client = useMemo(() => {
    const api = createBuilderClient({ apiKey, baseUrl: apiBase, retry });
    return templateId ? templateBuilderClient(api) : api;
  }, [apiKey, apiBase, retry, templateId]);
  const editedId = templateId ?? documentId ?? '';
  const draftQuery = {
    queryKey: ['signet', templateId ? 'template' : 'draft', apiBase, editedId, apiKey],
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const loaded = await client.getDraft(editedId, { signal });
      // As the viewer does: the PDF's first and last chunks and page 1's preview image are asked for now, while
      // React renders the builder, not once its pages mount.
      prefetchPdf(loaded.documentUrl, loaded.fileSize);
      const preview = documentPreviewUrl(loaded.documentUrl);
      if (preview) loadPagePreview(preview);
      return loaded;
    },
    retry: false,
    // The builder owns the draft once loaded (its edits, its saves): never refetched behind its back, and asked for
    // anew by the next builder mounted on it.
    staleTime: Infinity,
    gcTime: 0,
  } as const;
  // As the viewer does: asked for while rendering, not after the first paint (when useQuery's effect would), and
  // pdf.js's worker (a 1 MB script) boots right behind it. Deduplicated by its key, so re-renders do not ask again.
  const queryClient = useQueryClient();
  if (!queryClient.getQueryState(draftQuery.queryKey)) {
    void queryClient.prefetchQuery(draftQuery);
    preloadPdfWorker();
  }
  const draft = useQuery(draftQuery);
  const rootRef = useRef<HTMLDivElement>(null);
  useViewerStyles(rootRef, builderCss);
  const events = useLatest(rest);
  useEffect(() => {
    if (draft.error) events.current.onError?.(draft.error);
  }, [draft.error, events]);

  return (
    <div
      ref={rootRef}
      className={['signet-viewer', 'signet-builder', className].filter(Boolean).join(' ')}
      lang={language}
      dir={textDirection(language)}
      role="region"
      aria-label={messages?.builderLabel}
    >
      {!messages ? (
        <div className="signet-centered" role="status">
          <span className="signet-spinner" aria-hidden="true" />
        </div>
      ) : draft.data ? (
        <BuilderView key={draft.data.id} client={client} draft={draft.data} messages={messages} allowSend={allowSend && !templateId} {...rest} />
      ) : draft.error ? (
        <div className="signet-centered">
          <StatusPanel
            tone="error"
            title={messages.loadFailed}
            action={
              <button type="button" className="signet-button signet-button--secondary" onClick={() => void draft.refetch()}>
                {messages.retry}
              </button>
            }
          >
            {draft.error.message}
          </StatusPanel>
        </div>
      ) : (
        <div className="signet-centered" role="status">
          <span className="signet-spinner" aria-hidden="true" />
          {messages.loading}
        </div>
      )}
    </div>
  );
}
