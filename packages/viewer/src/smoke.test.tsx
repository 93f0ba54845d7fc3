import { render, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { commands } from 'vitest/browser';

test('a browser test reaches the real server', async () => {
  const doc = await commands.createDocument({ pages: 2 });
  const response = await fetch(`${doc.baseUrl}/sdk/documents/${doc.documentId}`, { headers: { 'X-API-Key': doc.apiKey } });
  expect(response.status).toBe(200);
  render(<p>hello {doc.pageCount}</p>);
  expect(screen.getByText('hello 2')).toBeTruthy();
});
