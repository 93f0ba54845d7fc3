import type { DocumentMetadata } from './demo-api.js';

const STATUS_TEXT: Record<DocumentMetadata['status'], string> = {
  pending: 'Awaiting signature',
  completed: 'Signed',
  declined: 'Declined',
  draft: 'Draft',
  voided: 'Voided',
  expired: 'Expired',
};

/** The organization's documents, newest first, with their status. */
export function DocumentList({
  documents,
  selectedId,
  onOpen,
}: {
  documents: DocumentMetadata[] | null;
  selectedId: string | undefined;
  onOpen(documentId: string): void;
}) {
  if (!documents) return <p className="muted">Loading…</p>;
  if (documents.length === 0) return <p className="muted">No contracts yet.</p>;
  return (
    <ul className="documents" aria-label="Contracts">
      {documents.map((document) => (
        <li key={document.id}>
          <button
            type="button"
            className="document"
            aria-current={document.id === selectedId ? 'true' : undefined}
            onClick={() => onOpen(document.id)}
          >
            <span className="document-name">{document.filename}</span>
            <span className="document-row">
              <span className="document-meta">
                {document.pageCount} {document.pageCount === 1 ? 'page' : 'pages'} · {new Date(document.createdAt).toLocaleDateString()}
              </span>
              <span className={`badge badge-${document.status}`}>{STATUS_TEXT[document.status]}</span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
