import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { generateSamplePdf } from '../../pdf/sample.js';
import type { Storage } from '../../storage/index.js';
import { capturingLogger } from '../../../test/support/harness.js';
import { createTestHsm, type TestHsm } from '../../../test/sealing/signing/test-hsm.js';
import { createTestPki, startTestTsa, type TestPki } from '../../../test/sealing/signing/test-pki.js';
import type { Pkcs11Key } from '../types.js';
import { resolveSigningKey } from './credentials.js';
import { parsePkcs11Uri } from './pkcs11-config.js';
import { signPdfAtLevel } from './sign-pdf.js';
import { certificateSha256, findSignatureDictionaries, parseSignedData, verifyPdfSignatures } from './verify-pdf.js';

/*
 * Sealing with keys in a PKCS#11 token: a private SoftHSM2 token (`createTestHsm`) holding the test PKI's RSA signer
 * (with the CA's certificate beside it) and its EC P-256 self-signed key, signed through `signPdfAtLevel` as a seal
 * is, and checked by pdfsig and `verifyPdfSignatures`; the startup checks of `resolveSigningKey` name what is wrong
 * and never the PIN.
 */
const run = promisify(execFile);
const REASON = 'Sealed by Signet: document doc_hsm, submission sub_hsm';
const SIGNING_TIME = new Date(Math.floor(Date.now() / 1000) * 1000);
/** A PIN no message may contain. */
const WRONG_PIN = '918273645';

let pki: TestPki;
let hsm: TestHsm;
let original: Uint8Array;
let work: string;

beforeAll(async () => {
  [pki, hsm, original, work] = await Promise.all([
    createTestPki(),
    createTestHsm(),
    generateSamplePdf({ pages: 1 }),
    mkdtemp(join(tmpdir(), 'signet-pkcs11-')),
  ]);
  await hsm.importKey('rsa-seal', '01', join(pki.dir, 'signer.key'), join(pki.dir, 'signer.crt'));
  await hsm.importKey('ec-seal', '02', join(pki.dir, 'self.key'), join(pki.dir, 'self.crt'));
  await hsm.importCertificate('Signet Test CA', '10', pki.caCertificatePath);
});

afterAll(async () => {
  await hsm?.close();
});

function key(keyLabel: string, pin = hsm.pin): Pkcs11Key {
  return { pkcs11: { modulePath: hsm.modulePath, token: hsm.token, keyLabel, pin } };
}

async function pdfsig(bytes: Uint8Array): Promise<string> {
  const path = join(work, `pdfsig-${Math.random()}.pdf`);
  await writeFile(path, bytes);
  return (await run('pdfsig', [path])).stdout;
}

/** The certificates the (last) signature's CMS carries, as hex SHA-256 of their DER. */
function cmsCertificates(bytes: Uint8Array): string[] {
  const signedData = parseSignedData(findSignatureDictionaries(bytes).at(-1)!.contents!.der);
  return (signedData.certificates ?? [])
    .filter((c) => c instanceof pkijs.Certificate)
    .map((c) => certificateSha256(new Uint8Array(c.toSchema().toBER())));
}

async function resolve(env: Record<string, string>) {
  const { logger, logs } = capturingLogger();
  const sealing = loadConfig(env).sealing;
  // A PKCS#11 key is looked up in the token alone: the store is not touched.
  const credential = resolveSigningKey({ sealing, databaseUrl: undefined, secret: 'x'.repeat(32), storage: {} as Storage, logger });
  return { credential, logs };
}

async function resolveError(env: Record<string, string>): Promise<string> {
  const { credential, logs } = await resolve(env);
  const error = (await credential.then(() => expect.unreachable('the credential should be refused'), (e: unknown) => e)) as Error;
  expect(error.message).not.toContain(WRONG_PIN);
  expect(error.message).not.toContain(hsm.pin);
  expect(JSON.stringify(logs)).not.toContain(WRONG_PIN);
  return error.message;
}

describe('signing with a key in a PKCS#11 token', () => {
  it('seals with an RSA key: pdfsig and verifyPdfSignatures find it valid, by the token’s certificate and chain', async () => {
    const { bytes, level } = await signPdfAtLevel(original, { key: key('rsa-seal'), signingTime: SIGNING_TIME, reason: REASON });
    expect(level).toBe('B-B');
    const out = await pdfsig(bytes);
    expect(out).toContain('Signature Validation: Signature is Valid.');
    expect(out).toContain('Total document signed');
    expect(out).toContain('Signer Certificate Common Name: Signet Test Signer');
    expect(out).toContain('Signing Hash Algorithm: SHA-256');
    const [check] = await verifyPdfSignatures(bytes);
    expect(check).toMatchObject({ coversWholeFile: true, digestMatches: true, signatureValid: true });
    expect(check?.certificateSha256).toBe(pki.signer.certificateSha256);
    // The CA's certificate came from the token too: the chain is the token's other certificates that issue it.
    const caSha256 = certificateSha256(new X509Certificate(await readFile(pki.caCertificatePath)).raw);
    expect(cmsCertificates(bytes).sort()).toEqual([pki.signer.certificateSha256, caSha256].sort());
  });

  it('seals with an EC P-256 key (ECDSA, r||s turned into DER)', async () => {
    for (let i = 0; i < 3; i++) {
      const { bytes } = await signPdfAtLevel(original, { key: key('ec-seal'), signingTime: SIGNING_TIME, reason: REASON });
      const out = await pdfsig(bytes);
      expect(out).toContain('Signature Validation: Signature is Valid.');
      expect(out).toContain('Signer Certificate Common Name: Signet Self-Signed');
      const [check] = await verifyPdfSignatures(bytes);
      expect(check).toMatchObject({ coversWholeFile: true, digestMatches: true, signatureValid: true });
      expect(check?.certificateSha256).toBe(pki.selfSigned.certificateSha256);
      expect(cmsCertificates(bytes)).toEqual([pki.selfSigned.certificateSha256]);
    }
  });

  it('seals at B-T with a timestamp authority', async () => {
    const tsa = await startTestTsa();
    try {
      for (const label of ['rsa-seal', 'ec-seal']) {
        const signed = await signPdfAtLevel(original, { key: key(label), signingTime: SIGNING_TIME, reason: REASON, tsaUrl: tsa.url, level: 'B-T' });
        expect(signed.level).toBe('B-T');
        expect(await pdfsig(signed.bytes)).toContain('Signature Validation: Signature is Valid.');
        expect((await verifyPdfSignatures(signed.bytes))[0]).toMatchObject({ digestMatches: true, signatureValid: true });
      }
    } finally {
      await tsa.close();
    }
  });
});

describe('resolveSigningKey with SIGNET_SIGNING_PKCS11', () => {
  it('checks the key at startup and logs where it is, without the PIN', async () => {
    const { credential, logs } = await resolve({ SIGNET_SIGNING_PKCS11: hsm.uri('rsa-seal'), SIGNET_SIGNING_PKCS11_PIN: hsm.pin });
    expect(await credential).toMatchObject({
      source: 'pkcs11',
      certificateSha256: pki.signer.certificateSha256,
      selfSigned: false,
      pkcs11: { modulePath: hsm.modulePath, token: hsm.token, keyLabel: 'rsa-seal' },
    });
    const line = logs.find((entry) => entry.msg === 'Seals are signed with a key in a PKCS#11 token');
    expect(line).toMatchObject({ token: hsm.token, keyLabel: 'rsa-seal', certificateSha256: pki.signer.certificateSha256 });
    expect(JSON.stringify(logs)).not.toContain(hsm.pin);
  });

  it('takes the PIN from the URI too, and an extra chain from SIGNET_SIGNING_PKCS11_CHAIN', async () => {
    const { credential } = await resolve({
      SIGNET_SIGNING_PKCS11: `${hsm.uri('ec-seal')}&pin-value=${hsm.pin}`,
      SIGNET_SIGNING_PKCS11_CHAIN: pki.caCertificatePath,
    });
    const resolved = await credential;
    expect(resolved).toMatchObject({ source: 'pkcs11', certificateSha256: pki.selfSigned.certificateSha256, selfSigned: true });
    expect('pkcs11' in resolved && resolved.pkcs11.chain).toHaveLength(1);
  });

  it('refuses a wrong PIN, naming the PIN variable but not the PIN', async () => {
    const message = await resolveError({ SIGNET_SIGNING_PKCS11: hsm.uri('rsa-seal'), SIGNET_SIGNING_PKCS11_PIN: WRONG_PIN });
    expect(message).toMatch(/^SIGNET_SIGNING_PKCS11: .*refused the PIN \(SIGNET_SIGNING_PKCS11_PIN is wrong\)/);
  });

  it('refuses a token that is not there, listing those that are', async () => {
    const uri = hsm.uri('rsa-seal').replace(`token=${encodeURIComponent(hsm.token)}`, 'token=Nowhere');
    const message = await resolveError({ SIGNET_SIGNING_PKCS11: uri, SIGNET_SIGNING_PKCS11_PIN: WRONG_PIN });
    expect(message).toContain(`no token labelled "Nowhere"`);
    expect(message).toContain(`"${hsm.token}"`);
  });

  it('refuses a key label the token does not hold', async () => {
    const message = await resolveError({ SIGNET_SIGNING_PKCS11: hsm.uri('no-such-key'), SIGNET_SIGNING_PKCS11_PIN: hsm.pin });
    expect(message).toContain(`no private key labelled "no-such-key" on the token "${hsm.token}"`);
  });

  it('refuses a module path that does not exist', async () => {
    const uri = `pkcs11:token=x;object=y?module-path=/no/such/libpkcs11.so`;
    const message = await resolveError({ SIGNET_SIGNING_PKCS11: uri, SIGNET_SIGNING_PKCS11_PIN: WRONG_PIN });
    expect(message).toContain('the PKCS#11 module /no/such/libpkcs11.so does not exist');
  });

  it('refuses a chain file that is missing', async () => {
    const message = await resolveError({
      SIGNET_SIGNING_PKCS11: hsm.uri('rsa-seal'),
      SIGNET_SIGNING_PKCS11_PIN: hsm.pin,
      SIGNET_SIGNING_PKCS11_CHAIN: join(work, 'missing.pem'),
    });
    expect(message).toMatch(/^SIGNET_SIGNING_PKCS11_CHAIN: .*missing\.pem cannot be read \(ENOENT\)/);
  });
});

describe('SIGNET_SIGNING_PKCS11 configuration', () => {
  it('is not set beside SIGNET_SIGNING_P12', () => {
    expect(() =>
      loadConfig({ SIGNET_SIGNING_P12: pki.signer.path, SIGNET_SIGNING_PKCS11: hsm.uri('rsa-seal'), SIGNET_SIGNING_PKCS11_PIN: WRONG_PIN }),
    ).toThrow(/SIGNET_SIGNING_P12 and SIGNET_SIGNING_PKCS11 are both set/);
  });

  it('names what a bad URI lacks, without repeating it', () => {
    const cases: Array<[string, RegExp]> = [
      ['token=Signet;object=seal', /starts with "pkcs11:"/],
      ['pkcs11:token=Signet;object=seal', /module-path is missing/],
      ['pkcs11:object=seal?module-path=/x.so', /token is missing/],
      ['pkcs11:token=Signet?module-path=/x.so', /object is missing/],
      ['pkcs11:token=Signet;object=seal;type=cert?module-path=/x.so', /type=cert/],
      [`pkcs11:token=Signet;object=seal;pin=${WRONG_PIN}?module-path=/x.so`, /"pin" is not an attribute/],
    ];
    for (const [uri, message] of cases) {
      let error: Error | undefined;
      try {
        loadConfig({ SIGNET_SIGNING_PKCS11: uri });
      } catch (e) {
        error = e as Error;
      }
      expect(error?.message).toMatch(/^Invalid configuration: SIGNET_SIGNING_PKCS11: /);
      expect(error?.message).toMatch(message);
      expect(error?.message).not.toContain(WRONG_PIN);
    }
  });

  it('gives the PIN once, and its companions only with it', () => {
    expect(() => loadConfig({ SIGNET_SIGNING_PKCS11: `${hsm.uri('x')}&pin-value=1`, SIGNET_SIGNING_PKCS11_PIN: '1' })).toThrow(/give it once/);
    expect(() => loadConfig({ SIGNET_SIGNING_PKCS11_PIN: '1' })).toThrow(/SIGNET_SIGNING_PKCS11_PIN: set without SIGNET_SIGNING_PKCS11/);
  });

  it('reads percent-encoded values', () => {
    expect(parsePkcs11Uri('pkcs11:token=My%20Token;object=seal%3B1;type=private?module-path=/opt/hsm/lib%20x.so')).toEqual({
      location: { modulePath: '/opt/hsm/lib x.so', token: 'My Token', keyLabel: 'seal;1' },
    });
  });
});
