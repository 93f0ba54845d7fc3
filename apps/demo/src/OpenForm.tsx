import { useState, type FormEvent } from 'react';

export interface Target {
  documentId: string;
  apiKey: string;
  baseUrl: string;
}

/** Open any document: a document id and a pk key (and the API's URL when it is elsewhere). */
export function OpenForm({ defaults, onOpen }: { defaults: { apiKey: string; baseUrl: string }; onOpen(target: Target): void }) {
  const [documentId, setDocumentId] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onOpen({ documentId: documentId.trim(), apiKey: apiKey.trim() || defaults.apiKey, baseUrl: baseUrl.trim() || defaults.baseUrl });
  };
  return (
    <form className="panel open-form" onSubmit={submit}>
      <h2>Open a document</h2>
      <label>
        Document id
        <input required value={documentId} onChange={(e) => setDocumentId(e.target.value)} placeholder="doc_…" spellCheck={false} />
      </label>
      <label>
        Public key
        <input value={apiKey} onChange={(e) => setApiKey(e.target.value)} placeholder={defaults.apiKey ? 'this demo’s pk key' : 'pk_…'} spellCheck={false} />
      </label>
      <label>
        API URL
        <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder={defaults.baseUrl || 'https://…'} spellCheck={false} />
      </label>
      <button type="submit" className="btn">
        Open
      </button>
    </form>
  );
}
