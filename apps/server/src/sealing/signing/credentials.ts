import { generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import forge from 'node-forge';
import { deriveKey, secretBox, type SecretBox } from '../../secret-box.js';
import type { SealingConfig } from '../../config.js';
import type { Logger } from '../../logger.js';
import { databaseLocation, type Storage } from '../../storage/index.js';
import { SealError } from '../errors.js';
import type { SigningKey } from '../types.js';
import { openSigningKey } from './sign-pdf.js';
import { certificateSha256 } from './verify-pdf.js';

/** The key seals are signed with, and what the server says about it (startup log, `/verify`). */
export type SigningCredential = SigningKey & {
  /** Hex SHA-256 of the certificate's DER, as `verifyPdfSignatures` reports it: how this instance knows its seals. */
  certificateSha256: string;
  /** The certificate's subject, one line (`O=Signet, CN=Signet development seal`). */
  subject: string;
  /** ISO 8601 UTC. */
  notAfter: string;
  selfSigned: boolean;
  /** `configured`: `SIGNET_SIGNING_P12`; `generated`: a development certificate this server made and keeps. */
  source: 'configured' | 'generated';
};

export interface ResolveSigningKeyOptions {
  sealing: SealingConfig;
  databaseUrl: string | undefined;
  /** `SIGNET_SECRET` (or the embedded store's generated one): the generated key's password and encryption key. */
  secret: string;
  storage: Storage;
  logger: Logger;
}

/** The generated certificate's file beside the embedded database, and its row name in PostgreSQL. */
export const GENERATED_P12_FILE = 'signet-signing.p12';
const STORED_SECRET_NAME = 'signing-p12';
const GENERATED_SUBJECT = [
  { shortName: 'CN', value: 'Signet development seal' },
  { shortName: 'O', value: 'Signet' },
];
const TEN_YEARS_MS = 10 * 365.25 * 86_400_000;
/** The generated certificate starts an hour early, so a worker whose clock lags a little still signs inside it. */
const CLOCK_SKEW_MS = 3_600_000;

/**
 * The signing key: `SIGNET_SIGNING_P12` (a file path, or the file in base64) with `SIGNET_SIGNING_P12_PASSWORD`,
 * checked now so a bad one stops startup; with none configured, a self-signed development certificate generated
 * on first start and kept — beside the embedded database (`signet-signing.p12`, mode 600), in the database on
 * PostgreSQL (AES-256-GCM under a key derived from `SIGNET_SECRET`), or nowhere for an in-memory database.
 * @example
 * const { sealing, databaseUrl } = config;
 * const credential = await resolveSigningKey({ sealing, databaseUrl, secret, storage, logger });
 * await signPdf(pdf, { key: credential, signingTime, reason });
 */
export async function resolveSigningKey(options: ResolveSigningKeyOptions): Promise<SigningCredential> {
  if (options.sealing.p12 !== undefined) {
    const key = { p12: await readConfiguredP12(options.sealing.p12), password: options.sealing.p12Password ?? '' };
    const credential = await describeKey(key, 'configured', 'SIGNET_SIGNING_P12');
    options.logger.info(
      { certificateSha256: credential.certificateSha256, subject: credential.subject, notAfter: credential.notAfter },
      'Seals are signed with the configured certificate',
    );
    return credential;
  }
  const credential = await generatedKey(options);
  options.logger.warn(
    { certificateSha256: credential.certificateSha256, subject: credential.subject, notAfter: credential.notAfter },
    'Seals are signed with a generated, self-signed development certificate: Adobe Reader and other viewers show ' +
      'such a signature as of unknown identity. Set SIGNET_SIGNING_P12 and SIGNET_SIGNING_P12_PASSWORD in production.',
  );
  return credential;
}

/** A path to an existing file, else the file's bytes in base64; anything else is refused without echoing it. */
async function readConfiguredP12(value: string): Promise<Uint8Array> {
  if (existsSync(value) && statSync(value).isFile()) return new Uint8Array(await readFile(value));
  const compact = value.replace(/\s/g, '');
  if (compact.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(compact) && compact.length % 4 === 0) {
    return new Uint8Array(Buffer.from(compact, 'base64'));
  }
  throw new Error('SIGNET_SIGNING_P12 names no existing file and is not base64: give a PKCS#12 file path or its bytes');
}

/** Opens `key` as `signPdf` will and describes its certificate; a key that cannot sign now throws, naming `origin`. */
async function describeKey(
  key: SigningKey,
  source: SigningCredential['source'],
  origin: string,
): Promise<SigningCredential> {
  let certificateDer: Uint8Array;
  try {
    certificateDer = (await openSigningKey(key, new Date())).certificate;
  } catch (error) {
    if (!(error instanceof SealError)) throw error;
    throw new Error(`${origin}: ${error.message}`, { cause: error });
  }
  const certificate = new X509Certificate(certificateDer);
  return {
    ...key,
    certificateSha256: certificateSha256(certificateDer),
    subject: certificate.subject.split('\n').join(', '),
    notAfter: new Date(certificate.validTo).toISOString(),
    // Not checkIssued: OpenSSL wants keyCertSign on the issuer, which a signing certificate rightly lacks.
    selfSigned: certificate.issuer === certificate.subject && certificate.verify(certificate.publicKey),
    source,
  };
}

async function generatedKey(options: ResolveSigningKeyOptions): Promise<SigningCredential> {
  const password = deriveKey(options.secret, 'signet signing-p12 password').toString('base64url');
  const location = databaseLocation(options.databaseUrl);
  if (location.engine === 'postgres') {
    const box = secretBox(options.secret, 'signet signing-p12 encryption');
    let stored = await options.storage.getStoredSecret(STORED_SECRET_NAME);
    if (stored === null) stored = await options.storage.putStoredSecretIfAbsent(STORED_SECRET_NAME, box.seal(generateP12(password)));
    const p12 = openStoredP12(box, stored);
    return describeKey({ p12, password }, 'generated', 'The generated signing certificate kept in the database');
  }
  if (location.path === ':memory:') {
    return describeKey({ p12: generateP12(password), password }, 'generated', 'The generated signing certificate');
  }
  const file = join(dirname(location.path), GENERATED_P12_FILE);
  await keepFirst(file, () => generateP12(password));
  return describeKey(
    { p12: new Uint8Array(await readFile(file)), password },
    'generated',
    `${file} (delete it to generate a new one, if SIGNET_SECRET changed)`,
  );
}

/**
 * Writes `file` unless it exists, atomically: the bytes go to a private temporary file first and are linked into
 * place, so of two processes starting at once one wins and the other never reads a half-written file.
 */
async function keepFirst(file: string, create: () => Uint8Array): Promise<void> {
  if (existsSync(file)) return;
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(temporary, create(), { flag: 'wx', mode: 0o600 });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary);
  }
}

/**
 * A self-signed RSA-2048 signing certificate (CN "Signet development seal", key usage digitalSignature and
 * nonRepudiation, ten years) with its key, as PKCS#12 (AES-256, SHA-256). node:crypto makes the key (node-forge's
 * pure-JS RSA key generation takes seconds); node-forge writes the certificate and the PKCS#12.
 */
export function generateP12(password: string, now = new Date()): Uint8Array {
  const { privateKey: privatePem, publicKey: publicPem } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const privateKey = forge.pki.privateKeyFromPem(privatePem) as forge.pki.rsa.PrivateKey;
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicPem);
  // A positive serial: the high bit of the first byte clear.
  certificate.serialNumber = `0${randomBytes(16).toString('hex').slice(1)}`;
  certificate.validity.notBefore = new Date(now.getTime() - CLOCK_SKEW_MS);
  certificate.validity.notAfter = new Date(now.getTime() + TEN_YEARS_MS);
  certificate.setSubject(GENERATED_SUBJECT);
  certificate.setIssuer(GENERATED_SUBJECT);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(privateKey, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(privateKey, [certificate], password, {
    algorithm: 'aes256',
    friendlyName: 'Signet development seal',
    generateLocalKeyId: true,
  });
  return new Uint8Array(Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'));
}

function openStoredP12(box: SecretBox, sealed: Uint8Array): Uint8Array {
  try {
    return box.open(sealed);
  } catch (error) {
    throw new Error(
      'The generated signing certificate kept in the database does not decrypt with SIGNET_SECRET: it was made ' +
        'under another SIGNET_SECRET. Restore that secret, or configure SIGNET_SIGNING_P12.',
      { cause: error },
    );
  }
}
