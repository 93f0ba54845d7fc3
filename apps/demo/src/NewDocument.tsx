import { lazy, Suspense, useState, type FormEvent } from 'react';
import { demoApi } from './demo-api.js';

// The builder is its own entry of @signet/viewer and a chunk of its own here: the signing pages never load it.
const SigningBuilder = lazy(() => import('@signet/viewer/builder').then((module) => ({ default: module.SigningBuilder })));

type Step = { kind: 'upload' } | { kind: 'build'; documentId: string; key: string };

/**
 * "New document": upload a PDF (or take the sample), then place its fields in `<SigningBuilder>` with a builder
 * session key the demo's backend minted, and send it; `onSent` then opens it for signing.
 */
export function NewDocument({ baseUrl, locale, onSent, onCancel }: { baseUrl: string; locale: string; onSent(documentId: string): void; onCancel(): void }) {
  const [step, setStep] = useState<Step>({ kind: 'upload' });
  const [file, setFile] = useState<File | null>(null);
  const [signers, setSigners] = useState<'1' | '2'>('1');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const start = async (withFile: File | null) => {
    setBusy(true);
    setProblem(null);
    try {
      const { documentId } = await demoApi.createDraft(withFile, signers);
      const key = await demoApi.builderSession(documentId);
      setStep({ kind: 'build', documentId, key });
    } catch (error) {
      setProblem(`Could not create the draft: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  const upload = (event: FormEvent) => {
    event.preventDefault();
    if (file) void start(file);
  };

  if (step.kind === 'build') {
    return (
      <div className="viewer-frame">
        <div className="viewer-heading">
          <h1>Place the fields</h1>
          <span className="muted">
            Drag a field onto the page, or focus one in the list and press Enter; move it with the arrow keys. Changes are saved as you go;
            Send makes the document ready to sign.
          </span>
        </div>
        <Suspense fallback={<p role="status">Loading the builder…</p>}>
          <SigningBuilder
            className="viewer builder"
            documentId={step.documentId}
            apiKey={step.key}
            baseUrl={baseUrl}
            locale={locale}
            allowSend
            onSend={(document) => onSent(document.id)}
          />
        </Suspense>
      </div>
    );
  }

  return (
    <section className="empty new-document" aria-labelledby="new-document-heading">
      <h1 id="new-document-heading">New document</h1>
      <p>Upload a PDF, or start from the sample agreement; then place its fields and send it for signing.</p>
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <form className="new-document-form" onSubmit={upload}>
        <label>
          PDF
          <input type="file" accept="application/pdf,.pdf" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
        </label>
        <fieldset>
          <legend>Signers</legend>
          <label>
            <input type="radio" name="signers" value="1" checked={signers === '1'} onChange={() => setSigners('1')} /> One (Casey Client)
          </label>
          <label>
            <input type="radio" name="signers" value="2" checked={signers === '2'} onChange={() => setSigners('2')} /> Two (and Pat Provider)
          </label>
        </fieldset>
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={busy || !file}>
            Upload and place fields
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => void start(null)}>
            Use the sample
          </button>
          <button type="button" className="btn" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
