import { execFile } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { generateSamplePdf } from '../../pdf/sample.js';
import { SealError } from '../errors.js';
import { signPdfAtLevel, type SignPdfOptions, type SignedPdf } from './sign-pdf.js';
import { padesReport } from './pades-report.js';
import { findSignatureDictionaries, verifyPdfSignatures } from './verify-pdf.js';
import { createTestPki, startTestTsa, type TestTsa } from '../../../test/sealing/signing/test-pki.js';
import { startLtvPki, type LtvPki } from '../../../test/sealing/signing/test-ltv-pki.js';

/*
 * PAdES B-LT and B-LTA against a local PKI (`startLtvPki`): root → intermediate → signer, an `openssl ocsp`
 * responder for the signer, the root's CRL on a loopback server, `openssl ts` as the authority. What the file holds
 * is checked with other tools than ours: qpdf for the DSS, `openssl ocsp`, `crl`, `cms` and `ts` for its parts.
 */
const run = promisify(execFile);
const REASON = 'Sealed by Signet: document doc_ltv, submission sub_ltv';
const SIGNING_TIME = new Date(Math.floor(Date.now() / 1000) * 1000);

let pki: LtvPki;
let tsa: TestTsa;
let original: Uint8Array;
let work: string;
let longTerm: SignedPdf;
let archival: SignedPdf;

beforeAll(async () => {
  [pki, original, work] = await Promise.all([startLtvPki(), generateSamplePdf({ pages: 2 }), mkdtemp(join(tmpdir(), 'signet-ltv-'))]);
  tsa = await startTestTsa({ pki });
  longTerm = await signPdfAtLevel(original, options({ level: 'B-LT' }));
  archival = await signPdfAtLevel(original, options({ level: 'B-LTA' }));
}, 60_000);

afterAll(async () => {
  await tsa?.close();
  await pki?.close();
});

function options(overrides: Partial<SignPdfOptions> = {}): SignPdfOptions {
  return { key: pki.signer, tsaUrl: tsa.url, signingTime: SIGNING_TIME, reason: REASON, ...overrides };
}

async function save(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(work, `${Math.random().toString(36).slice(2)}-${name}`);
  await writeFile(path, bytes);
  return path;
}

/** The file's objects as `qpdf --json` reads them, and the catalog's `/DSS` dictionary. */
async function qpdfDss(bytes: Uint8Array) {
  const { stdout } = await run('qpdf', ['--json=2', '--json-stream-data=none', await save('dss.pdf', bytes)], { maxBuffer: 64 << 20 });
  const objects = (JSON.parse(stdout) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>] }).qpdf[1];
  const value = (ref: string) => objects[`obj:${ref}`]!.value!;
  const root = value(objects['trailer']!.value!['/Root'] as string);
  const dss = value(root['/DSS'] as string) as { '/Certs': string[]; '/OCSPs': string[]; '/CRLs': string[]; '/VRI': Record<string, Record<string, string[]>> };
  return { dss, path: (await save('dss.pdf', bytes)) };
}

/** A stream's decoded bytes, as qpdf gives them. */
async function streamData(path: string, ref: string): Promise<Buffer> {
  const { stdout } = await run('qpdf', [`--show-object=${ref.replace(' 0 R', '')}`, '--filtered-stream-data', path], { encoding: 'buffer' });
  return stdout;
}

/** The bytes a signature dictionary's ByteRange covers, concatenated, and its `/Contents`. */
function signed(bytes: Uint8Array, index: number): { content: Buffer; contents: Uint8Array } {
  const found = findSignatureDictionaries(bytes).at(index)!;
  const [a, b, c, d] = found.byteRange;
  return { content: Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]), contents: found.contents!.der };
}

async function expectSealError(promise: Promise<unknown>, retryable: boolean, message: RegExp): Promise<void> {
  const error = await promise.then(() => expect.unreachable('signPdfAtLevel should have failed'), (e: unknown) => e);
  expect(error).toBeInstanceOf(SealError);
  expect((error as SealError).message).toMatch(message);
  expect((error as SealError).retryable).toBe(retryable);
}

describe('B-LT', () => {
  it('reaches B-LT: a DSS with the chains, the OCSP response and the CRL, and a VRI entry for the signature (qpdf)', async () => {
    expect(longTerm.level).toBe('B-LT');
    expect(longTerm.levelReason).toBeUndefined();
    const { dss } = await qpdfDss(longTerm.bytes);
    // The signer, the intermediate, the root and the timestamp authority.
    expect(dss['/Certs']).toHaveLength(4);
    expect(dss['/OCSPs']).toHaveLength(1);
    expect(dss['/CRLs']).toHaveLength(1);
    const vriKey = `/${createHash('sha1').update(signed(longTerm.bytes, 0).contents).digest('hex').toUpperCase()}`;
    expect(dss['/VRI'][vriKey]).toMatchObject({ '/Cert': expect.any(Array), '/OCSP': dss['/OCSPs'], '/CRL': dss['/CRLs'] });
  });

  it("embeds an OCSP response openssl verifies and reads as good, and the root's CRL openssl verifies", async () => {
    const { dss, path } = await qpdfDss(longTerm.bytes);
    const ocspPath = await save('ocsp.der', await streamData(path, dss['/OCSPs'][0]!));
    const ocsp = await run('openssl', ['ocsp', '-respin', ocspPath, '-issuer', pki.intermediatePath, '-cert', pki.signer.certificatePath,
      '-CAfile', pki.rootPath, '-verify_other', pki.intermediatePath]);
    expect(ocsp.stderr).toContain('Response verify OK');
    expect(ocsp.stdout).toMatch(/signer\.crt: good/);
    const crlPath = await save('crl.der', await streamData(path, dss['/CRLs'][0]!));
    const crl = await run('openssl', ['crl', '-inform', 'DER', '-in', crlPath, '-CAfile', pki.rootPath, '-noout']);
    expect(crl.stderr).toContain('verify OK');
  });

  it('keeps a signature openssl cms verifies against the root', async () => {
    const { content, contents } = signed(longTerm.bytes, 0);
    const { stderr } = await run('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', await save('sig.der', contents),
      '-content', await save('content.bin', content), '-CAfile', pki.rootPath, '-purpose', 'any', '-out', '/dev/null']);
    expect(stderr).toContain('CMS Verification successful');
  });
});

describe('B-LTA', () => {
  it('ends in a document timestamp over the whole file before it, which openssl ts -verify accepts', async () => {
    expect(archival.level).toBe('B-LTA');
    const dictionaries = findSignatureDictionaries(archival.bytes);
    expect(dictionaries).toHaveLength(2);
    expect(dictionaries[1]!.dictionary).toMatch(/\/Type\s*\/DocTimeStamp/);
    expect(dictionaries[1]!.dictionary).toMatch(/\/SubFilter\s*\/ETSI\.RFC3161/);
    const { content, contents } = signed(archival.bytes, 1);
    const token = contents.subarray(0, tokenLength(contents));
    const { stdout } = await run('openssl', ['ts', '-verify', '-data', await save('covered.bin', content), '-in', await save('doc-ts.der', token),
      '-token_in', '-CAfile', pki.rootPath, '-untrusted', pki.tsaCertificatePath]);
    expect(stdout).toContain('Verification: OK');
    // The timestamp covers the signature and the first DSS; the second DSS (the timestamp's own) follows it.
    expect(dictionaries[1]!.byteRange[0]).toBe(0);
    const { dss } = await qpdfDss(archival.bytes);
    expect(Object.keys(dss['/VRI'])).toHaveLength(3);
  });

  it('is read back by padesReport: B-LTA, both chains good from the DSS, the timestamps and their times', async () => {
    const report = await padesReport(archival.bytes);
    expect(report).toMatchObject({
      level: 'B-LTA',
      signingTime: SIGNING_TIME.toISOString(),
      signatureTimestamp: expect.any(String),
      documentTimestamp: expect.any(String),
    });
    expect(Date.parse(report!.documentTimestamp!)).toBeGreaterThanOrEqual(Date.parse(report!.signatureTimestamp!));
    expect(report!.chain.map((c) => [c.subject, c.revocation.status, c.revocation.source])).toEqual([
      ['CN=Signet LTV Signer, O=Signet LTV Test', 'good', 'ocsp'],
      ['CN=Signet LTV Intermediate, O=Signet LTV Test', 'good', 'crl'],
      ['CN=Signet LTV Root, O=Signet LTV Test', 'none', undefined],
    ]);
    expect(report!.chain[0]!.sha256).toBe(pki.signer.certificateSha256);
    expect(report!.timestampChain.map((c) => [c.subject, c.revocation.status])).toEqual([
      ['CN=Signet LTV TSA, O=Signet LTV Test', 'good'],
      ['CN=Signet LTV Root, O=Signet LTV Test', 'none'],
    ]);
    expect((await padesReport(longTerm.bytes))?.level).toBe('B-LT');
  });

  it('a byte changed under the signature: the signature fails, and the report claims no level', async () => {
    const tampered = archival.bytes.slice();
    tampered[Math.floor(original.byteLength / 2)]! ^= 0x01;
    const [seal] = await verifyPdfSignatures(tampered);
    expect(seal).toMatchObject({ digestMatches: false });
    expect((await padesReport(tampered))?.level).toBeNull();
  });

  it('a byte changed after the signature, under the document timestamp: B-LT at most', async () => {
    const tampered = archival.bytes.slice();
    const [signature, timestamp] = findSignatureDictionaries(archival.bytes);
    const inBetween = signature!.byteRange[2] + signature!.byteRange[3] + 10;
    expect(inBetween).toBeLessThan(timestamp!.byteRange[1]);
    tampered[inBetween]! ^= 0x01;
    expect((await padesReport(tampered))?.level).not.toBe('B-LTA');
  });
});

describe('levels not reached', () => {
  it('refuses a revoked signing certificate, not retryably, naming it and when', async () => {
    const requests = tsa.requests.length;
    await expectSealError(signPdfAtLevel(original, options({ key: pki.revoked, level: 'B-LTA' })), false,
      /signing certificate cannot seal: The certificate CN=Signet LTV Revoked Signer, O=Signet LTV Test is revoked since \d{4}-/);
    expect(tsa.requests.length).toBe(requests);
  });

  it('with the OCSP responder down: retryable before the final attempt, B-T with the reason on it', async () => {
    await pki.ocsp.stop();
    try {
      await expectSealError(signPdfAtLevel(original, options({ level: 'B-LTA' })), true,
        /PAdES B-LTA not reached \(the seal is retried\): no revocation data for CN=Signet LTV Signer.*OCSP http:\/\/127\.0\.0\.1:\d+\/: unreachable/);
      const final = await signPdfAtLevel(original, options({ level: 'B-LTA', finalAttempt: true }));
      expect(final.level).toBe('B-T');
      expect(final.levelReason).toMatch(/^PAdES B-LTA not reached: no revocation data for CN=Signet LTV Signer/);
      expect(await run('pdfsig', [await save('bt.pdf', final.bytes)]).then((r) => r.stdout)).toContain('Signature is Valid');
      expect(await padesReport(final.bytes)).toMatchObject({ level: 'B-T', chain: [{ revocation: { status: 'none' } }, {}, {}] });
    } finally {
      await pki.ocsp.start();
    }
  });

  it('with the CRL server failing too, the intermediate is named as well', async () => {
    await pki.ocsp.stop();
    pki.crls.fail = true;
    try {
      const final = await signPdfAtLevel(original, options({ level: 'B-LT', finalAttempt: true }));
      expect(final.level).toBe('B-T');
      expect(final.levelReason).toMatch(/Signet LTV Signer/);
      expect(final.levelReason).toMatch(/Signet LTV Intermediate, .*CRL http:\/\/127\.0\.0\.1:\d+\/root\.crl: HTTP 503/);
    } finally {
      pki.crls.fail = false;
      await pki.ocsp.start();
    }
  });

  it('a chain that names no responder gives B-T at once, with the reason, without retrying', async () => {
    const plain = await createTestPki();
    const sealed = await signPdfAtLevel(original, options({ key: plain.signer, level: 'B-LTA' }));
    expect(sealed.level).toBe('B-T');
    expect(sealed.levelReason).toMatch(/CN=Signet Test Signer, O=Signet Test names no OCSP responder and no CRL distribution point/);
  });

  it('B-B and B-T are made as asked; B-T without an authority is refused', async () => {
    expect((await signPdfAtLevel(original, options({ level: 'B-B' }))).level).toBe('B-B');
    const bt = await signPdfAtLevel(original, options({ level: 'B-T' }));
    expect(bt.level).toBe('B-T');
    expect((await padesReport(bt.bytes))?.level).toBe('B-T');
    await expectSealError(signPdfAtLevel(original, options({ level: 'B-T', tsaUrl: undefined })), false, /needs a timestamp authority \(SIGNET_TSA_URL\)/);
  });

  it('the signer chain it reports is the one of the PKCS#12', async () => {
    const certificate = new X509Certificate(await readFile(pki.intermediatePath));
    const report = await padesReport(longTerm.bytes);
    expect(report?.chain[1]?.notAfter).toBe(new Date(certificate.validTo).toISOString());
  });
});

describe('SIGNET_PADES_LEVEL', () => {
  it('defaults to the highest level the configuration allows, and refuses one it cannot give, naming the setting', () => {
    const tsaUrl = 'http://127.0.0.1:9/tsa';
    expect(loadConfig({}).sealing.padesLevel).toBe('B-B');
    expect(loadConfig({ SIGNET_TSA_URL: tsaUrl }).sealing).toMatchObject({ padesLevel: 'B-LTA', revocationTimeoutMs: 5000 });
    expect(loadConfig({ SIGNET_TSA_URL: tsaUrl, SIGNET_PADES_LEVEL: 'B-LT' }).sealing.padesLevel).toBe('B-LT');
    expect(loadConfig({ SIGNET_PADES_LEVEL: 'B-B' }).sealing.padesLevel).toBe('B-B');
    for (const level of ['B-T', 'B-LT', 'B-LTA']) {
      expect(() => loadConfig({ SIGNET_PADES_LEVEL: level })).toThrow(
        `Invalid configuration: SIGNET_PADES_LEVEL: ${level} needs a timestamp authority (SIGNET_TSA_URL)`,
      );
    }
    expect(() => loadConfig({ SIGNET_PADES_LEVEL: 'B-LTV' })).toThrow(/SIGNET_PADES_LEVEL/);
  });
});

/** The DER length of the token at the start of a zero-padded `/Contents`. */
function tokenLength(bytes: Uint8Array): number {
  const lengthByte = bytes[1]!;
  if (lengthByte < 0x80) return 2 + lengthByte;
  const count = lengthByte & 0x7f;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + bytes[2 + i]!;
  return 2 + count + length;
}
