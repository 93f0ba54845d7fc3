import { expect } from 'vitest';
import type { SubmissionResult } from '@signet/contract';
import { render, screen, waitFor } from '@testing-library/react';
import { commands } from 'vitest/browser';
import { SigningViewer, type SigningViewerProps } from '../SigningViewer.js';
import type { CreatedDocument } from './commands.js';

/** A fresh document on the real server, mounted in a viewer of `height` px; resolves once the viewer is ready. */
export async function renderViewer(
  options: { pages?: number; props?: Partial<SigningViewerProps>; height?: number; document?: CreatedDocument } = {},
) {
  const doc = options.document ?? (await commands.createDocument({ pages: options.pages ?? 2 }));
  const events = { ready: 0, completed: [] as SubmissionResult[], errors: [] as Error[], changes: [] as string[], sealed: [] as string[] };
  const view = render(
    <div style={{ height: `${options.height ?? 700}px`, width: '900px' }}>
      <SigningViewer
        documentId={doc.documentId}
        apiKey={doc.apiKey}
        baseUrl={doc.baseUrl}
        retry={{ baseDelayMs: 5, maxDelayMs: 20 }}
        onReady={() => (events.ready += 1)}
        onComplete={(result) => events.completed.push(result)}
        onError={(error) => events.errors.push(error)}
        onFieldChange={(id) => events.changes.push(id)}
        onSealed={(url) => events.sealed.push(url)}
        {...options.props}
      />
    </div>,
  );
  return { doc, events, view };
}

/** Waits until the viewer has painted page 1 and its fields are on it. */
export async function untilReady(): Promise<void> {
  await waitFor(() => expect(document.querySelector('[data-page-number="1"] canvas[data-rendered="true"]')).toBeTruthy(), {
    timeout: 15_000,
  });
  await screen.findByRole('textbox', { name: 'Full legal name' });
}

/** A signature PNG drawn on a canvas, as the dialog would produce. */
export function inkPng(width = 160, height = 50): string {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d')!;
  context.strokeStyle = '#0b1f44';
  context.lineWidth = 3;
  context.beginPath();
  context.moveTo(5, height - 10);
  context.bezierCurveTo(width / 3, 0, (2 * width) / 3, height, width - 5, 10);
  context.stroke();
  return canvas.toDataURL('image/png');
}
