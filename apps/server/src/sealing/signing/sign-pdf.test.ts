import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as asn1js from 'asn1js';
import { PDF } from '@libpdf/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSamplePdf } from '../../pdf/sample.js';
import { SealError } from '../errors.js';
import { signPdf, type SignPdfOptions } from './sign-pdf.js';
import { createTestPki, startTestTsa, type TestPki } from '../../../test/sealing/signing/test-pki.js';
import { findSignatureDictionaries, parseSignedData, verifyPdfSignatures } from './verify-pdf.js';

const run = promisify(execFile);
const REASON = 'Sealed by Signet: document doc_test, submission sub_test';
/** Now, to the second (`/M` holds no milliseconds): the test certificates were issued moments ago. */
const SIGNING_TIME = new Date(Math.floor(Date.now() / 1000) * 1000);

let pki: TestPki;
let original: Uint8Array;
let work: string;

beforeAll(async () => {
  [pki, original, work] = await Promise.all([
    createTestPki(),
    generateSamplePdf({ pages: 2 }),
    mkdtemp(join(tmpdir(), 'signet-sign-')),
  ]);
});

function options(overrides: Partial<SignPdfOptions> = {}): SignPdfOptions {
  return { key: pki.signer, signingTime: SIGNING_TIME, reason: REASON, location: 'Signet test', ...overrides };
}

async function save(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(work, name);
  await writeFile(path, bytes);
  return path;
}

async function pdfsig(bytes: Uint8Array): Promise<string> {
  // pdfsig exits 0 even on a digest mismatch: only its output says how it went.
  const { stdout } = await run('pdfsig', [await save(`pdfsig-${Math.random()}.pdf`, bytes)]);
  return stdout;
}

/** The bytes the (last) signature's ByteRange covers, concatenated, as `openssl cms -content` wants them. */
function signedContent(bytes: Uint8Array): { content: Buffer; cms: Uint8Array } {
  const found = findSignatureDictionaries(bytes).at(-1)!;
  const [a, b, c, d] = found.byteRange;
  return { content: Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]), cms: found.contents!.der };
}

async function expectSealError(promise: Promise<unknown>, retryable: boolean, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => expect.unreachable('signPdf should have failed'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SealError);
  expect((error as SealError).retryable).toBe(retryable);
  expect((error as SealError).message).toMatch(message);
}

describe('signPdf, B-B', () => {
  let sealed: Uint8Array;
  beforeAll(async () => {
    sealed = await signPdf(original, options());
  });

  it('is a PAdES signature pdfsig reports valid over the total document', async () => {
    const out = await pdfsig(sealed);
    expect(out).toContain('Signature Validation: Signature is Valid.');
    expect(out).toContain('Total document signed');
    expect(out).toContain('Signature Type: ETSI.CAdES.detached');
    expect(out).toContain('Signing Hash Algorithm: SHA-256');
    expect(out).toContain('Signer Certificate Common Name: Signet Test Signer');
  });

  it('appends to the input: the original is a byte prefix of the output', () => {
    expect(sealed.byteLength).toBeGreaterThan(original.byteLength);
    expect(Buffer.compare(sealed.subarray(0, original.byteLength), original)).toBe(0);
  });

  it('verifies with openssl cms against the test CA', async () => {
    const { content, cms } = signedContent(sealed);
    const contentPath = await save('content.bin', content);
    const cmsPath = await save('signature.der', cms);
    const { stderr } = await run('openssl', [
      'cms', '-verify', '-binary', '-inform', 'DER', '-in', cmsPath, '-content', contentPath,
      '-CAfile', pki.caCertificatePath, '-purpose', 'any', '-out', '/dev/null',
    ]);
    expect(stderr).toContain('CMS Verification successful');
  });

  it('is read back by verifyPdfSignatures: intact, with its reason, time and certificate', async () => {
    expect(await verifyPdfSignatures(sealed)).toEqual([
      {
        byteRange: expect.any(Array),
        coversWholeFile: true,
        digestMatches: true,
        signatureValid: true,
        certificateSha256: pki.signer.certificateSha256,
        signingTime: SIGNING_TIME.toISOString(),
        reason: REASON,
      },
    ]);
  });

  it('shows a flipped byte inside the signed range: pdfsig Digest Mismatch, verifyPdfSignatures too', async () => {
    const damaged = sealed.slice();
    damaged[Math.floor(original.byteLength / 2)]! ^= 0x01;
    expect(await pdfsig(damaged)).toContain('Signature Validation: Digest Mismatch.');
    const [check] = await verifyPdfSignatures(damaged);
    expect(check).toMatchObject({ coversWholeFile: true, digestMatches: false, signatureValid: true });
  });

  it('reports bytes appended after the signature as not covering the whole file', async () => {
    const extended = Buffer.concat([sealed, Buffer.from('\n% appended\n')]);
    const [check] = await verifyPdfSignatures(extended);
    expect(check).toMatchObject({ coversWholeFile: false, digestMatches: true, signatureValid: true });
    expect(await pdfsig(extended)).toContain('Not total document signed');
  });

  it('carries the CMS signing-time attribute libpdf adds (the documented deviation, LibPDF-js/core#86)', () => {
    const signerInfo = parseSignedData(signedContent(sealed).cms).signerInfos[0]!;
    const types = signerInfo.signedAttrs!.attributes.map((a) => a.type);
    expect(types).toContain('1.2.840.113549.1.9.16.2.47'); // signingCertificateV2, required by PAdES
    expect(types).toContain('1.2.840.113549.1.9.5'); // signing-time: when this fails, #86 is fixed; drop the note
  });

  it('signs with a self-signed EC P-256 key and with a -legacy (RC2/3DES) P12', async () => {
    for (const key of [pki.selfSigned, pki.legacy]) {
      const bytes = await signPdf(original, options({ key }));
      expect(await pdfsig(bytes)).toContain('Signature Validation: Signature is Valid.');
      const [check] = await verifyPdfSignatures(bytes);
      expect(check).toMatchObject({ digestMatches: true, signatureValid: true });
      expect(check?.certificateSha256).toBe(key.certificateSha256);
    }
  });

  it('uses the single asn1js copy libpdf and pkijs share (a second copy breaks P12Signer)', () => {
    const require = createRequire(import.meta.url);
    const fromPkijs = createRequire(require.resolve('pkijs'))('asn1js') as typeof asn1js;
    const libpdfEntry = require.resolve('@libpdf/core');
    const fromLibpdf = createRequire(libpdfEntry)('asn1js') as typeof asn1js;
    expect(fromPkijs.Sequence).toBe(asn1js.Sequence);
    expect(fromLibpdf.Sequence).toBe(asn1js.Sequence);
  });
});

describe('signPdf, B-T', () => {
  it('embeds a timestamp token over the signature value that openssl ts -verify accepts', async () => {
    const tsa = await startTestTsa();
    try {
      const sealed = await signPdf(original, options({ tsaUrl: tsa.url }));
      expect(tsa.requests).toHaveLength(1);
      expect(await pdfsig(sealed)).toContain('Signature Validation: Signature is Valid.');

      const signerInfo = parseSignedData(signedContent(sealed).cms).signerInfos[0]!;
      const token = signerInfo.unsignedAttrs!.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14')!;
      const tokenPath = await save('token.der', new Uint8Array(token.values[0].toBER()));
      const digest = createHash('sha256').update(signerInfo.signature.valueBlock.valueHexView).digest('hex');
      const { stdout } = await run('openssl', [
        'ts', '-verify', '-token_in', '-in', tokenPath, '-digest', digest,
        '-CAfile', pki.caCertificatePath, '-untrusted', pki.tsaCertificatePath,
      ]);
      expect(stdout).toContain('Verification: OK');
    } finally {
      await tsa.close();
    }
  });

  it('fails retryably, with no output, when the authority answers 500', async () => {
    const tsa = await startTestTsa({ fail: true });
    try {
      await expectSealError(signPdf(original, options({ tsaUrl: tsa.url })), true, /timestamp authority.*HTTP 500/);
      expect(tsa.requests).toHaveLength(1);
    } finally {
      await tsa.close();
    }
  });

  it('fails retryably when the authority is not there', async () => {
    const tsa = await startTestTsa();
    await tsa.close();
    await expectSealError(signPdf(original, options({ tsaUrl: tsa.url })), true, /timestamp authority/);
  });

  it('fails retryably when the authority answers something that is not a timestamp token', async () => {
    const server = await serve(async () => Buffer.from('not a timestamp reply'));
    try {
      await expectSealError(signPdf(original, options({ tsaUrl: server.url })), true, /timestamp authority/);
    } finally {
      await server.close();
    }
  });

  it('gives up on an authority that never answers, retryably', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const tsaUrl = `http://127.0.0.1:${port}/`;
      await expectSealError(signPdf(original, options({ tsaUrl })), true, /timed out after 5000ms/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('fails retryably when the authority grants a token that is not one', async () => {
    // TimeStampResp { status { granted }, timeStampToken: INTEGER 5 }: libpdf takes whatever follows the status.
    const granted = Buffer.from('300830030201000201' + '05', 'hex');
    const server = await serve(async () => granted);
    try {
      await expectSealError(signPdf(original, options({ tsaUrl: server.url })), true, /token cannot be read/);
    } finally {
      await server.close();
    }
  });

  it('fails retryably when the authority stamps something other than the signature', async () => {
    const tsa = await startTestTsa();
    // A genuine token from the test authority, but over another digest than the one asked for.
    const elsewhere = await serve(async () => {
      const queryPath = join(work, `other-${Math.random()}.tsq`);
      await run('openssl', ['ts', '-query', '-digest', 'ab'.repeat(32), '-sha256', '-cert', '-out', queryPath]);
      const reply = await fetch(tsa.url, { method: 'POST', body: await readFile(queryPath) });
      return Buffer.from(await reply.arrayBuffer());
    });
    try {
      await expectSealError(signPdf(original, options({ tsaUrl: elsewhere.url })), true, /stamps something other/);
      expect(tsa.requests).toHaveLength(1);
    } finally {
      await elsewhere.close();
      await tsa.close();
    }
  });
});

/** A loopback HTTP server that answers every request with `answer()`. */
async function serve(answer: () => Promise<Buffer>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume().on('end', () => {
      answer().then((body) => response.end(body), (error: unknown) => response.writeHead(502).end(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('signPdf refuses, not retryably', () => {
  it('a wrong P12 password', async () => {
    const key = { ...pki.signer, password: 'wrong' };
    await expectSealError(signPdf(original, options({ key })), false, /password/);
  });

  it('bytes that are not a PKCS#12 file', async () => {
    const key = { p12: new TextEncoder().encode('not a p12'), password: 'x' };
    await expectSealError(signPdf(original, options({ key })), false, /cannot be read/);
  });

  it('an expired certificate', async () => {
    await expectSealError(signPdf(original, options({ key: pki.expired })), false, /expired.*2020/);
  });

  it('a certificate not valid yet', async () => {
    await expectSealError(signPdf(original, options({ key: pki.notYetValid })), false, /not valid yet.*2099/);
  });

  it('an encrypted PDF, with an owner password only or a user password', async () => {
    for (const userPassword of ['', 'user-secret']) {
      const document = await PDF.load(original);
      document.setProtection({ userPassword, ownerPassword: 'owner-secret' });
      const encrypted = await document.save();
      await expectSealError(signPdf(encrypted, options()), false, /encrypted/);
    }
  });

  it('bytes that are not a PDF', async () => {
    const garbage = new TextEncoder().encode('%PDF-1.7\ngarbage');
    await expectSealError(signPdf(garbage, options()), false, /could not be signed/);
  });
});
