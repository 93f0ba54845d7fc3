'use client';

import { SigningViewer } from '@signet/viewer';

/** The viewer in a client component, imported statically: no dynamic(), no ssr: false. */
export function SignPage({ documentId, apiKey, baseUrl }) {
  return (
    <SigningViewer
      documentId={documentId}
      apiKey={apiKey}
      baseUrl={baseUrl}
      onReady={() => window.hostEvents?.push('ready')}
      onComplete={() => window.hostEvents?.push('complete')}
      onError={(error) => window.hostEvents?.push(`error: ${error.message}`)}
    />
  );
}
