import { configureHandwritingFont, configurePdfWorker, SigningViewer } from '@signet/viewer';
import { version } from 'react';
import { createRoot } from 'react-dom/client';

// The document, key and API come from the address: ?documentId=…&apiKey=…&baseUrl=…[&override=1]
const params = new URLSearchParams(location.search);
if (params.has('override')) {
  // The host serves its own copies (public/custom/, copied from @signet/viewer/assets/*).
  configurePdfWorker('/custom/pdf.worker.min.mjs');
  configureHandwritingFont('/custom/fonts/');
}
document.documentElement.dataset.react = version;

createRoot(document.getElementById('root')).render(
  <SigningViewer
    documentId={params.get('documentId')}
    apiKey={params.get('apiKey')}
    baseUrl={params.get('baseUrl')}
    onReady={() => window.hostEvents?.push('ready')}
    onComplete={() => window.hostEvents?.push('complete')}
    onError={(error) => window.hostEvents?.push(`error: ${error.message}`)}
  />,
);
