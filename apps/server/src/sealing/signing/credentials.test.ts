import { execFile } from 'node:child_process';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createLogger } from '../../logger.js';
import { openStorage, type Storage } from '../../storage/index.js';
import { storageEngines } from '../../../test/storage/test-engines.js';
import { generateSamplePdf } from '../../pdf/sample.js';
import * as asn1js from 'asn1js';
import { GENERATED_P12_FILE, resolveSigningKey, serialNumber, type SigningCredential } from './credentials.js';
import type { SigningKey } from '../types.js';
import { signPdf } from './sign-pdf.js';
import { createTestPki, type TestPki } from '../../../test/sealing/signing/test-pki.js';
import { verifyPdfSignatures } from './verify-pdf.js';
import { findStoredSecret } from '../../storage/queries/stored-secrets.js';

const run = promisify(execFile);
const engines = await storageEngines();
const SECRET = 'credentials-test-secret';

let pki: TestPki;
const opened: Storage[] = [];

beforeAll(async () => {
  pki = await createTestPki();
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((storage) => storage.close()));
});

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

async function resolve(options: {
  env?: Record<string, string>;
  databaseUrl: string | undefined;
  storage: Storage;
  secret?: string;
}): Promise<{ credential: SigningCredential & SigningKey; lines: { level: number; msg: string }[] }> {
  const { logger, lines } = capturingLogger();
  const credential = await resolveSigningKey({
    sealing: loadConfig(options.env ?? {}).sealing,
    databaseUrl: options.databaseUrl,
    secret: options.secret ?? SECRET,
    storage: options.storage,
    logger,
  });
  // Every credential of these tests is a PKCS#12 one (the PKCS#11 ones: pkcs11-signer.test.ts).
  if (!('p12' in credential)) throw new Error(`a PKCS#12 credential was expected, not ${credential.source}`);
  return { credential, lines };
}

async function sqliteStorage(): Promise<{ databaseUrl: string; dir: string; storage: Storage }> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-credentials-'));
  const databaseUrl = `file:${join(dir, 'signet.db')}`;
  const storage = await openStorage(databaseUrl);
  opened.push(storage);
  return { databaseUrl, dir, storage };
}

describe('serialNumber', () => {
  it.each([
    ['a zero first byte', 0x00],
    ['a first byte with its high bit set', 0xff],
    ['an ordinary first byte', 0x35],
  ])('encodes as a positive, minimal DER INTEGER of 16 bytes from %s', (_, first) => {
    const random = new Uint8Array(16).fill(0x11);
    random[0] = first;
    const der = new Uint8Array(new asn1js.Integer({ valueHex: serialNumber(random) }).toBER(false));
    expect([...der.subarray(0, 2)]).toEqual([0x02, 16]);
    expect(der[2]).toBeGreaterThan(0);
    expect(der[2]).toBeLessThan(0x80);
    expect([...der.subarray(3)]).toEqual([...random.subarray(1)]);
  });
});

describe('resolveSigningKey, configured', () => {
  it('reads SIGNET_SIGNING_P12 as a file path', async () => {
    const { storage } = await sqliteStorage();
    const { credential, lines } = await resolve({
      env: { SIGNET_SIGNING_P12: pki.signer.path, SIGNET_SIGNING_P12_PASSWORD: pki.signer.password },
      databaseUrl: ':memory:',
      storage,
    });
    expect(credential).toMatchObject({
      source: 'configured',
      selfSigned: false,
      certificateSha256: pki.signer.certificateSha256,
      password: pki.signer.password,
    });
    expect(credential.subject).toContain('CN=Signet Test Signer');
    expect(Buffer.from(credential.p12).equals(await readFile(pki.signer.path))).toBe(true);
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });

  it('reads SIGNET_SIGNING_P12 as base64, and sees a self-signed certificate', async () => {
    const { storage } = await sqliteStorage();
    const { credential } = await resolve({
      env: {
        SIGNET_SIGNING_P12: Buffer.from(pki.selfSigned.p12).toString('base64'),
        SIGNET_SIGNING_P12_PASSWORD: pki.selfSigned.password,
      },
      databaseUrl: ':memory:',
      storage,
    });
    expect(credential).toMatchObject({
      source: 'configured',
      selfSigned: true,
      certificateSha256: pki.selfSigned.certificateSha256,
    });
  });

  it('refuses a value that is neither a file nor base64, without echoing it', async () => {
    const { storage } = await sqliteStorage();
    const value = '/no/such/dir/signing.p12';
    const failure = resolve({ env: { SIGNET_SIGNING_P12: value }, databaseUrl: ':memory:', storage });
    await expect(failure).rejects.toThrow(/SIGNET_SIGNING_P12 names no existing file and is not base64/);
    await expect(failure).rejects.not.toThrow(value);
  });

  it('refuses base64 that is not a PKCS#12 file', async () => {
    const { storage } = await sqliteStorage();
    const env = { SIGNET_SIGNING_P12: Buffer.from('not a p12 at all').toString('base64') };
    await expect(resolve({ env, databaseUrl: ':memory:', storage })).rejects.toThrow(
      /SIGNET_SIGNING_P12: .*cannot be read/,
    );
  });

  it('refuses a wrong password', async () => {
    const { storage } = await sqliteStorage();
    const env = { SIGNET_SIGNING_P12: pki.signer.path, SIGNET_SIGNING_P12_PASSWORD: 'wrong' };
    await expect(resolve({ env, databaseUrl: ':memory:', storage })).rejects.toThrow(
      /SIGNET_SIGNING_P12: .*does not open with its password/,
    );
  });

  it('refuses an expired certificate', async () => {
    const { storage } = await sqliteStorage();
    const env = { SIGNET_SIGNING_P12: pki.expired.path, SIGNET_SIGNING_P12_PASSWORD: pki.expired.password };
    await expect(resolve({ env, databaseUrl: ':memory:', storage })).rejects.toThrow(/SIGNET_SIGNING_P12: .*expired/);
  });

  it('refuses a P12 that holds a certificate but no key', async () => {
    const { storage } = await sqliteStorage();
    const path = join(pki.dir, 'certificate-only.p12');
    await run('openssl', ['pkcs12', '-export', '-nokeys', '-in', pki.signer.certificatePath, '-out', path,
      '-passout', `pass:${pki.signer.password}`]);
    const env = { SIGNET_SIGNING_P12: path, SIGNET_SIGNING_P12_PASSWORD: pki.signer.password };
    await expect(resolve({ env, databaseUrl: ':memory:', storage })).rejects.toThrow(/SIGNET_SIGNING_P12: .*key/i);
  });
});

describe('resolveSigningKey, generated on the embedded store', () => {
  it('generates a development certificate once, keeps it beside the database, and warns', async () => {
    const { databaseUrl, dir, storage } = await sqliteStorage();
    const first = await resolve({ databaseUrl, storage });
    expect(first.credential).toMatchObject({ source: 'generated', selfSigned: true });
    expect(first.credential.subject).toContain('CN=Signet development seal');
    const years = (Date.parse(first.credential.notAfter) - Date.now()) / (365.25 * 86_400_000);
    expect(Math.round(years)).toBe(10);
    expect(first.lines.find((line) => line.level === 40)?.msg).toMatch(/development certificate.*unknown identity/);

    const file = join(dir, GENERATED_P12_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(first.credential.p12).equals(await readFile(file))).toBe(true);

    const second = await resolve({ databaseUrl, storage });
    expect(second.credential.certificateSha256).toBe(first.credential.certificateSha256);
    expect(second.credential.password).toBe(first.credential.password);
  });

  it('is a PKCS#12 openssl reads, with key usage digitalSignature and nonRepudiation, that signs', async () => {
    const { databaseUrl, dir, storage } = await sqliteStorage();
    const { credential } = await resolve({ databaseUrl, storage });
    const { stdout: pem } = await run('openssl', ['pkcs12', '-in', join(dir, GENERATED_P12_FILE), '-nokeys',
      '-passin', `pass:${credential.password}`]);
    const pemPath = join(dir, 'generated.pem');
    await writeFile(pemPath, pem);
    const { stdout: text } = await run('openssl', ['x509', '-in', pemPath, '-noout', '-text']);
    expect(text).toMatch(/Key Usage: critical\s+Digital Signature, Non Repudiation/);
    expect(text).toContain('Public-Key: (2048 bit)');

    const sealed = await signPdf(await generateSamplePdf(), {
      key: credential,
      signingTime: new Date(),
      reason: 'Sealed by Signet: generated key',
    });
    const { stdout } = await run('pdfsig', [await save(dir, 'sealed.pdf', sealed)]);
    expect(stdout).toContain('Signature Validation: Signature is Valid.');
    expect(stdout).toContain('Signer Certificate Common Name: Signet development seal');
    const [check] = await verifyPdfSignatures(sealed);
    expect(check?.certificateSha256).toBe(credential.certificateSha256);
  });

  it('keeps one certificate when two resolve at once', async () => {
    const { databaseUrl, storage } = await sqliteStorage();
    const [a, b] = await Promise.all([resolve({ databaseUrl, storage }), resolve({ databaseUrl, storage })]);
    expect(a.credential.certificateSha256).toBe(b.credential.certificateSha256);
  });

  it('fails loudly when the kept file was made under another secret', async () => {
    const { databaseUrl, storage } = await sqliteStorage();
    await resolve({ databaseUrl, storage });
    await expect(resolve({ databaseUrl, storage, secret: 'another secret' })).rejects.toThrow(
      new RegExp(`${GENERATED_P12_FILE}.*does not open with its password`),
    );
  });

  it('generates per process for an in-memory database, storing nothing', async () => {
    const { dir, storage } = await sqliteStorage();
    const first = await resolve({ databaseUrl: ':memory:', storage });
    const second = await resolve({ databaseUrl: ':memory:', storage });
    expect(first.credential.source).toBe('generated');
    expect(second.credential.certificateSha256).not.toBe(first.credential.certificateSha256);
    await expect(stat(join(dir, GENERATED_P12_FILE))).rejects.toThrow(/ENOENT/);
    expect(await findStoredSecret(storage.db.query, 'signing-p12')).toBeNull();
  });
});

const postgres = engines.filter((engine) => engine.name === 'postgres');

describe.each(postgres)('resolveSigningKey, generated on $name', (engine) => {
  const databaseUrl = 'postgres://signet.invalid/only-the-engine-is-read-from-this';

  it('keeps the certificate in the database, encrypted, and reuses it', async () => {
    const storage = await engine.open();
    opened.push(storage);
    const first = await resolve({ databaseUrl, storage });
    expect(first.credential.source).toBe('generated');
    const stored = await findStoredSecret(storage.db.query, 'signing-p12');
    expect(stored).not.toBeNull();
    expect(Buffer.from(stored!).includes(Buffer.from(first.credential.p12.subarray(0, 64)))).toBe(false);

    const second = await resolve({ databaseUrl, storage });
    expect(second.credential.certificateSha256).toBe(first.credential.certificateSha256);
  });

  it('fails loudly under another SIGNET_SECRET', async () => {
    const storage = await engine.open();
    opened.push(storage);
    await resolve({ databaseUrl, storage });
    await expect(resolve({ databaseUrl, storage, secret: 'another secret' })).rejects.toThrow(
      /does not decrypt with SIGNET_SECRET/,
    );
  });
});

async function save(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}
