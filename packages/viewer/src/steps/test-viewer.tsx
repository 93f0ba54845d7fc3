import { render, screen } from '@testing-library/react';
import { commands } from 'vitest/browser';
import { SigningViewer } from '../SigningViewer.js';
import { untilReady } from '../test-support/render-viewer.js';

/** A fresh sample agreement (2 pages) in a viewer `width` CSS px wide, as on a phone by default. */
export async function renderAt(width = 390) {
  const doc = await commands.createDocument({ pages: 2 });
  const changes: string[] = [];
  render(
    <div style={{ height: '700px', width: `${width}px` }}>
      <SigningViewer
        documentId={doc.documentId}
        apiKey={doc.apiKey}
        baseUrl={doc.baseUrl}
        retry={{ baseDelayMs: 5, maxDelayMs: 20 }}
        onFieldChange={(id) => changes.push(id)}
      />
    </div>,
  );
  await untilReady();
  return { doc, changes };
}

/** The field's control on the page (the panel has its own, of the same name). */
export const onPage = <T extends HTMLElement>(fieldId: string) => document.querySelector<T>(`.signet-pages [data-signet-field="${fieldId}"]`)!;
export const panel = () => screen.findByRole('region', { name: /\d of \d/ });
