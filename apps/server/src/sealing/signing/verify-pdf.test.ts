import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSamplePdf } from '../../pdf/sample.js';
import { signPdf, type SignPdfOptions } from './sign-pdf.js';
import { createTestPki, type TestPki } from '../../../test/sealing/signing/test-pki.js';
import { verifyPdfSignatures } from './verify-pdf.js';

let pki: TestPki;
let original: Uint8Array;
let sealed: Uint8Array;

function options(overrides: Partial<SignPdfOptions> = {}): SignPdfOptions {
  return { key: pki.signer, signingTime: new Date(), reason: 'Sealed by Signet: document doc_1', ...overrides };
}

beforeAll(async () => {
  [pki, original] = await Promise.all([createTestPki(), generateSamplePdf()]);
  sealed = await signPdf(original, options());
});

describe('verifyPdfSignatures', () => {
  it('finds nothing in an unsigned PDF', async () => {
    expect(await verifyPdfSignatures(original)).toEqual([]);
  });

  it('answers an empty list for garbage, never throwing', async () => {
    const garbage = [
      new Uint8Array(0),
      randomBytes(4096),
      new TextEncoder().encode('%PDF-1.7\n/ByteRange [0 10 20 30] /Contents <zz>'),
      new TextEncoder().encode('%PDF-1.7\n/ByteRange [0 99999999999 99999999999 5]'),
    ];
    for (const bytes of garbage.slice(0, 2)) expect(await verifyPdfSignatures(bytes)).toEqual([]);
    for (const bytes of garbage.slice(2)) {
      expect(await verifyPdfSignatures(bytes)).toMatchObject([
        { coversWholeFile: false, digestMatches: false, signatureValid: false, certificateSha256: null },
      ]);
    }
  });

  it('still answers for a sealed file cut short: found, but not intact', async () => {
    const truncated = sealed.subarray(0, sealed.byteLength - 200);
    expect(await verifyPdfSignatures(truncated)).toMatchObject([
      {
        coversWholeFile: false,
        digestMatches: false,
        signatureValid: true,
        certificateSha256: pki.signer.certificateSha256,
      },
    ]);
  });

  it('sees a signature whose CMS was damaged as invalid', async () => {
    const damaged = sealed.slice();
    const text = Buffer.from(damaged).toString('latin1');
    // The signature value ends the CMS of a B-B signature: change a hex digit just before the zero padding.
    let end = text.indexOf('>', text.lastIndexOf('/Contents <'));
    while (text[end - 1] === '0') end--;
    damaged[end - 20] = damaged[end - 20] === 0x41 ? 0x42 : 0x41;
    const [check] = await verifyPdfSignatures(damaged);
    expect(check).toMatchObject({ coversWholeFile: true, signatureValid: false });
  });

  it('reports each signature of a twice-signed file; only the last covers the whole file', async () => {
    const twice = await signPdf(sealed, options({ key: pki.selfSigned, reason: 'second' }));
    expect(await verifyPdfSignatures(twice)).toMatchObject([
      { coversWholeFile: false, digestMatches: true, signatureValid: true, reason: 'Sealed by Signet: document doc_1' },
      {
        coversWholeFile: true,
        digestMatches: true,
        signatureValid: true,
        reason: 'second',
        certificateSha256: pki.selfSigned.certificateSha256,
      },
    ]);
  });

  it('decodes a /Reason in PDFDocEncoding and in UTF-16', async () => {
    for (const reason of ['Scellé à Zürich', 'Σφραγίδα · Печать']) {
      const [check] = await verifyPdfSignatures(await signPdf(original, options({ reason })));
      expect(check?.reason).toBe(reason);
    }
  });

  it('reads back the backslashes libpdf 0.4.2 doubles in a /Reason with parentheses', async () => {
    const [check] = await verifyPdfSignatures(await signPdf(original, options({ reason: 'a (b)' })));
    // When this fails, libpdf stopped escaping twice: drop the note on SignPdfOptions.reason.
    expect(check?.reason).toBe('a \\(b\\)');
  });
});
