import { SigningViewer } from '@signet/viewer';
import { useCallback, useEffect, useState } from 'react';
import { demoApi, type DemoConfig, type DocumentMetadata, type SubmissionResult } from './demo-api.js';
import { DocumentList } from './DocumentList.js';
import { OpenForm, type Target } from './OpenForm.js';
import { WebhookEvents } from './WebhookEvents.js';

/** What the page's URL asks for: `?documentId=…&apiKey=…&baseUrl=…`. */
function targetFromUrl(): Partial<Target> {
  const query = new URLSearchParams(location.search);
  return {
    documentId: query.get('documentId') ?? undefined,
    apiKey: query.get('apiKey') ?? undefined,
    baseUrl: query.get('baseUrl') ?? undefined,
  };
}

export function App() {
  const [config, setConfig] = useState<DemoConfig | null>(null);
  const [documents, setDocuments] = useState<DocumentMetadata[] | null>(null);
  const [target, setTarget] = useState<Partial<Target>>(targetFromUrl);
  const [result, setResult] = useState<SubmissionResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const refresh = useCallback(() => demoApi.documents().then(setDocuments, () => setDocuments([])), []);
  useEffect(() => {
    demoApi.config().then(setConfig, () => setProblem('The demo backend is not reachable.'));
    void refresh();
  }, [refresh]);

  const open = (next: Partial<Target>) => {
    setResult(null);
    setTarget(next);
    const query = new URLSearchParams();
    if (next.documentId) query.set('documentId', next.documentId);
    if (next.apiKey && next.apiKey !== config?.pk) query.set('apiKey', next.apiKey);
    if (next.baseUrl && next.baseUrl !== config?.apiUrl) query.set('baseUrl', next.baseUrl);
    history.replaceState(null, '', query.size > 0 ? `?${query}` : location.pathname);
  };

  const create = async (size: 'short' | 'long') => {
    setBusy(true);
    try {
      const { documentId } = await demoApi.createDocument(size);
      await refresh();
      open({ documentId });
    } catch {
      setProblem('Could not create a sample document.');
    } finally {
      setBusy(false);
    }
  };

  const apiKey = target.apiKey ?? config?.pk;
  const baseUrl = target.baseUrl ?? config?.apiUrl;
  const current = documents?.find((document) => document.id === target.documentId);

  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="/">
          <span className="brand-mark" aria-hidden="true">N</span>
          <span>Northwind Leasing</span>
        </a>
        <nav className="topnav" aria-label="Main">
          <span aria-current="page">Contracts</span>
          <span>Tenants</span>
          <span>Billing</span>
        </nav>
        <span className="powered">Signing by Signet</span>
      </header>

      <div className="layout">
        <aside className="sidebar">
          <section className="panel">
            <div className="panel-head">
              <h2>Contracts</h2>
              <span className="muted">{documents ? `${documents.length}` : ''}</span>
            </div>
            <div className="actions">
              <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void create('short')}>
                New contract
              </button>
              <button type="button" className="btn" disabled={busy} onClick={() => void create('long')}>
                300-page contract
              </button>
            </div>
            <DocumentList documents={documents} selectedId={target.documentId} onOpen={(documentId) => open({ documentId })} />
          </section>
          <OpenForm defaults={{ apiKey: config?.pk ?? '', baseUrl: config?.apiUrl ?? '' }} onOpen={open} />
        </aside>

        <main className="stage">
          {problem && (
            <p className="notice notice-error" role="alert">
              {problem}
            </p>
          )}
          {result && target.documentId && (
            <section className="notice notice-success" aria-label="Submission result">
              <div>
                <strong>Signed.</strong> Submission <code>{result.submissionId}</code> was recorded at{' '}
                {new Date(result.timestamp).toLocaleString()}.
              </div>
              <a href={demoApi.submissionUrl(target.documentId)} target="_blank" rel="noreferrer">
                View the stored submission
              </a>
            </section>
          )}
          {target.documentId && apiKey && baseUrl ? (
            <div className="viewer-frame">
              <div className="viewer-heading">
                <h1>{current?.filename ?? 'Contract'}</h1>
                <span className="muted">Review the contract, fill in the highlighted fields and sign.</span>
              </div>
              <div className="viewer-row">
                <SigningViewer
                  key={`${target.documentId}:${apiKey}:${baseUrl}`}
                  className="viewer"
                  documentId={target.documentId}
                  apiKey={apiKey}
                  baseUrl={baseUrl}
                  locale={navigator.language}
                  onComplete={(completed) => {
                    setResult(completed);
                    void refresh();
                  }}
                />
                <WebhookEvents documentId={target.documentId} />
              </div>
            </div>
          ) : (
            <div className="empty">
              <h1>Sign your lease in minutes</h1>
              <p>Choose a contract on the left, or start a new one. Everything happens in this page: the document, the fields and your signature.</p>
              <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void create('short')}>
                Start a new contract
              </button>
            </div>
          )}
        </main>
      </div>
    </div>
  );
}
