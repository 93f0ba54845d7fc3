import { describe, expect, it } from 'vitest';
import { documentPreviewUrl } from './preview.js';

describe('documentPreviewUrl', () => {
  it('puts /preview in place of /file and keeps the token', () => {
    expect(documentPreviewUrl('https://sign.example.com/sdk/documents/doc_1/file?token=1764000000.abc')).toBe(
      'https://sign.example.com/sdk/documents/doc_1/preview?token=1764000000.abc',
    );
  });

  it('keeps a base path in front of /sdk', () => {
    expect(documentPreviewUrl('http://127.0.0.1:3000/api/sdk/documents/doc_x/file?token=t')).toBe('http://127.0.0.1:3000/api/sdk/documents/doc_x/preview?token=t');
  });

  it('is null for a URL that is not a Signet file URL', () => {
    expect(documentPreviewUrl('https://cdn.example.com/files/contract.pdf')).toBeNull();
    expect(documentPreviewUrl('https://sign.example.com/sdk/documents/doc_1/file/extra?token=t')).toBeNull();
    expect(documentPreviewUrl('not a url')).toBeNull();
    expect(documentPreviewUrl('/sdk/documents/doc_1/file?token=t')).toBeNull();
  });
});
