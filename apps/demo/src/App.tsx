import { SigningViewer } from '@signet/viewer';
import { useCallback, useEffect, useState } from 'react';
import { demoApi, type DemoConfig, type DocumentMetadata, type Signer, type SubmissionResult } from './demo-api.js';
import { DocumentList } from './DocumentList.js';
import { OpenForm, type Target } from './OpenForm.js';
import { LanguageSwitch } from './LanguageSwitch.js';
import { NewDocument } from './NewDocument.js';
import { SignerSwitch } from './SignerSwitch.js';
import { MailPanel } from './MailPanel.js';
import { WebhookEvents } from './WebhookEvents.js';

/** What the page's URL asks for: `?documentId=…&apiKey=…&baseUrl=…&signer=…`. */
function targetFromUrl(): Partial<Target> & { signerId?: string } {
  const query = new URLSearchParams(location.search);
  return {
    documentId: query.get('documentId') ?? undefined,
    apiKey: query.get('apiKey') ?? undefined,
    baseUrl: query.get('baseUrl') ?? undefined,
    signerId: query.get('signer') ?? undefined,
  };
}

/** Who signs when a document with signers opens: the one asked for, else the first who has not signed. */
function firstSigner(signers: Signer[], asked: string | undefined): string | undefined {
  if (asked && signers.some((signer) => signer.id === asked)) return asked;
  return (signers.find((signer) => signer.status !== 'completed' && signer.status !== 'waiting') ?? signers[0])?.id;
}

export function App() {
  const [config, setConfig] = useState<DemoConfig | null>(null);
  const [documents, setDocuments] = useState<DocumentMetadata[] | null>(null);
  const [target, setTarget] = useState<Partial<Target> & { signerId?: string }>(targetFromUrl);
  // A document with signers: who they are, and the session key of the one signing in this page.
  const [signers, setSigners] = useState<Signer[] | null>(null);
  const [session, setSession] = useState<{ signerId: string; key: string } | null>(null);
  const [result, setResult] = useState<SubmissionResult | null>(null);
  const [busy, setBusy] = useState(false);
  // "New document": uploading a PDF, then placing its fields in the builder, until it is sent.
  const [authoring, setAuthoring] = useState(false);
  // The viewer's language: `?locale=` (the language switch keeps it there), else the browser's.
  const [locale, setLocale] = useState(() => new URLSearchParams(location.search).get('locale') ?? navigator.language);
  const switchLocale = (next: string) => {
    setLocale(next);
    const query = new URLSearchParams(location.search);
    query.set('locale', next);
    history.replaceState(null, '', `?${query}`);
  };
  const [problem, setProblem] = useState<string | null>(null);

  const refresh = useCallback(() => demoApi.documents().then(setDocuments, () => setDocuments([])), []);
  useEffect(() => {
    demoApi.config().then(setConfig, () => setProblem('The demo backend is not reachable.'));
    void refresh();
  }, [refresh]);

  const documentId = target.documentId;
  const loadSigners = useCallback(
    () => (documentId ? demoApi.signers(documentId).then(setSigners, () => setSigners([])) : Promise.resolve(setSigners([]))),
    [documentId],
  );
  useEffect(() => {
    setSigners(null);
    setSession(null);
    void loadSigners();
  }, [loadSigners]);
  const signerId = signers && signers.length > 0 ? firstSigner(signers, target.signerId) : undefined;
  useEffect(() => {
    if (!documentId || !signerId || session?.signerId === signerId) return;
    let current = true;
    demoApi.session(documentId, signerId).then(
      (key) => current && setSession({ signerId, key }),
      () => current && setProblem('Could not start a signing session.'),
    );
    return () => {
      current = false;
    };
  }, [documentId, signerId, session?.signerId]);

  const open = (next: Partial<Target> & { signerId?: string }) => {
    setResult(null);
    setAuthoring(false);
    setTarget(next);
    const query = new URLSearchParams();
    if (next.documentId) query.set('documentId', next.documentId);
    if (next.signerId) query.set('signer', next.signerId);
    if (next.apiKey && next.apiKey !== config?.pk) query.set('apiKey', next.apiKey);
    if (next.baseUrl && next.baseUrl !== config?.apiUrl) query.set('baseUrl', next.baseUrl);
    const chosenLocale = new URLSearchParams(location.search).get('locale');
    if (chosenLocale) query.set('locale', chosenLocale);
    history.replaceState(null, '', query.size > 0 ? `?${query}` : location.pathname);
  };

  const create = async (size: 'short' | 'long' | 'lease' | 'lease-by-email' | 'form') => {
    setBusy(true);
    try {
      const { documentId } =
        size === 'lease'
          ? await demoApi.createLease()
          : size === 'lease-by-email'
            ? await demoApi.createLease('email')
            : size === 'form'
              ? await demoApi.createForm()
              : await demoApi.createDocument(size);
      await refresh();
      open({ documentId });
    } catch {
      setProblem('Could not create a sample document.');
    } finally {
      setBusy(false);
    }
  };

  const switchSigner = (next: string) => {
    if (target.documentId) open({ ...target, signerId: next });
  };
  const withSigners = signers !== null && signers.length > 0;
  // A document with signers is signed with the current signer's session key; any other with the page's key.
  const apiKey = withSigners ? (session?.signerId === signerId ? session?.key : undefined) : signers ? (target.apiKey ?? config?.pk) : undefined;
  const signer = signers?.find((candidate) => candidate.id === signerId);
  const nextSigner = signers?.find((candidate) => candidate.status !== 'completed' && candidate.id !== signerId);
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
              <button type="button" className="btn" disabled={busy || authoring} onClick={() => setAuthoring(true)}>
                New document
              </button>
              <button type="button" className="btn" disabled={busy} onClick={() => void create('lease')}>
                New lease
              </button>
              <button type="button" className="btn" disabled={busy} onClick={() => void create('lease-by-email')}>
                Lease by e-mail
              </button>
              <button type="button" className="btn" disabled={busy} onClick={() => void create('form')}>
                New form
              </button>
              <button type="button" className="btn" disabled={busy} onClick={() => void create('long')}>
                300-page contract
              </button>
            </div>
            <DocumentList documents={documents} selectedId={target.documentId} onOpen={(documentId) => open({ documentId })} />
          </section>
          <MailPanel />
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
                <strong>{signer ? `Signed by ${signer.name}.` : 'Signed.'}</strong> Submission <code>{result.submissionId}</code> was recorded at{' '}
                {new Date(result.timestamp).toLocaleString()}.
              </div>
              {nextSigner && (
                <button type="button" className="btn" onClick={() => switchSigner(nextSigner.id)}>
                  Continue as {nextSigner.name}
                </button>
              )}
              <a href={demoApi.submissionUrl(target.documentId)} target="_blank" rel="noreferrer">
                View the stored submission
              </a>
            </section>
          )}
          {authoring && config ? (
            <NewDocument
              baseUrl={config.apiUrl}
              locale={locale}
              onCancel={() => setAuthoring(false)}
              onSent={(documentId) => {
                void refresh();
                open({ documentId });
              }}
            />
          ) : target.documentId ? (
            <div className="viewer-frame">
              <div className="viewer-heading">
                <h1>{current?.filename ?? 'Contract'}</h1>
                <span className="muted">
                  {withSigners
                    ? 'Each party signs their own fields with a key of their own; switch to see the other side.'
                    : 'Review the contract, fill in the highlighted fields and sign.'}
                </span>
                {withSigners && <SignerSwitch signers={signers} current={signerId} onSwitch={switchSigner} />}
                <LanguageSwitch value={locale} onChange={switchLocale} />
              </div>
              {apiKey && baseUrl ? (
                <div className="viewer-row">
                  <SigningViewer
                    key={`${target.documentId}:${apiKey}:${baseUrl}`}
                    className="viewer"
                    documentId={target.documentId}
                    apiKey={apiKey}
                    baseUrl={baseUrl}
                    locale={locale}
                    onComplete={(completed) => {
                      setResult(completed);
                      void refresh();
                      void loadSigners();
                    }}
                    onDecline={() => {
                      void refresh();
                      void loadSigners();
                    }}
                  />
                  <WebhookEvents documentId={target.documentId} />
                </div>
              ) : (
                <p className="muted" role="status">
                  {withSigners && signer ? `Starting a signing session for ${signer.name}…` : 'Loading…'}
                </p>
              )}
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
