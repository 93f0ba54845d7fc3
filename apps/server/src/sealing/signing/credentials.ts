import { createHash, randomBytes, verify, webcrypto, X509Certificate } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { deriveKey, secretBox, type SecretBox } from '../../secret-box.js';
import type { SealingConfig } from '../../config.js';
import type { Logger } from '../../logger.js';
import { databaseLocation, type Storage } from '../../storage/index.js';
import { SealError } from '../errors.js';
import type { Pkcs11Key, SealingKey, SigningKey } from '../types.js';
import { openSigningKey } from './sign-pdf.js';
import { certificateSha256 } from './verify-pdf.js';
import { findStoredSecret, putStoredSecretIfAbsent } from '../../storage/queries/stored-secrets.js';

/** The key seals are signed with, and what the server says about it (startup log, `/verify`). */
export type SigningCredential = SealingKey & {
  /** Hex SHA-256 of the certificate's DER, as `verifyPdfSignatures` reports it: how this instance knows its seals. */
  certificateSha256: string;
  /** The certificate's subject, one line (`O=Signet, CN=Signet development seal`). */
  subject: string;
  /** ISO 8601 UTC. */
  notAfter: string;
  selfSigned: boolean;
  /**
   * `configured`: `SIGNET_SIGNING_P12`; `generated`: a development certificate this server made and keeps;
   * `pkcs11`: a key in a PKCS#11 token (`SIGNET_SIGNING_PKCS11`).
   */
  source: 'configured' | 'generated' | 'pkcs11';
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
/** The subject and issuer, in this order: `CN=Signet development seal, O=Signet`. */
const GENERATED_SUBJECT: ReadonlyArray<readonly [oid: string, value: string]> = [
  ['2.5.4.3', 'Signet development seal'],
  ['2.5.4.10', 'Signet'],
];
const FRIENDLY_NAME = 'Signet development seal';
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
  if (options.sealing.pkcs11 !== undefined) return pkcs11Key(options.sealing.pkcs11, options.logger);
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

/**
 * A key in a PKCS#11 token, checked as the worker will use it: module, token, PIN, key and certificate found, the
 * certificate valid now, and a test signature that its public key verifies. The PIN is in no message nor log line.
 */
async function pkcs11Key(settings: NonNullable<SealingConfig['pkcs11']>, logger: Logger): Promise<SigningCredential> {
  const chain = settings.chainFile === undefined ? undefined : await readChain(settings.chainFile);
  const key: Pkcs11Key = {
    pkcs11: { ...settings.location, ...(settings.pin !== undefined && { pin: settings.pin }), ...(chain && { chain }) },
  };
  const credential = await describeKey(key, 'pkcs11', 'SIGNET_SIGNING_PKCS11');
  const { modulePath, token, keyLabel } = settings.location;
  logger.info(
    { certificateSha256: credential.certificateSha256, subject: credential.subject, notAfter: credential.notAfter, modulePath, token, keyLabel },
    'Seals are signed with a key in a PKCS#11 token',
  );
  return credential;
}

/** `SIGNET_SIGNING_PKCS11_CHAIN`: a PEM file of the signing certificate's issuers, as DER. */
async function readChain(file: string): Promise<Uint8Array[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`SIGNET_SIGNING_PKCS11_CHAIN: ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error(`SIGNET_SIGNING_PKCS11_CHAIN: ${file} holds no PEM certificate`);
  try {
    return blocks.map((block) => new Uint8Array(new X509Certificate(block).raw));
  } catch (error) {
    throw new Error(`SIGNET_SIGNING_PKCS11_CHAIN: ${file} holds a certificate that cannot be read`, { cause: error });
  }
}

/** Opens `key` as `signPdf` will and describes its certificate; a key that cannot sign now throws, naming `origin`. */
async function describeKey(
  key: SealingKey,
  source: SigningCredential['source'],
  origin: string,
): Promise<SigningCredential> {
  let certificateDer: Uint8Array;
  try {
    const signer = await openSigningKey(key, new Date());
    try {
      certificateDer = signer.certificate;
      if ('pkcs11' in key) await checkKeyMatches(signer);
    } finally {
      signer.close?.();
    }
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

/** The key signs, and the certificate's public key verifies what it signed: they belong together. */
async function checkKeyMatches(signer: Awaited<ReturnType<typeof openSigningKey>>): Promise<void> {
  const probe = new TextEncoder().encode('Signet signing key check');
  const signature = await signer.sign(probe, 'SHA-256');
  if (!verify('sha256', probe, new X509Certificate(signer.certificate).publicKey, signature)) {
    throw new SealError("the token's key does not match its certificate (the certificate's public key does not verify its signature)", {
      retryable: false,
    });
  }
}

async function generatedKey(options: ResolveSigningKeyOptions): Promise<SigningCredential> {
  const password = deriveKey(options.secret, 'signet signing-p12 password').toString('base64url');
  const location = databaseLocation(options.databaseUrl);
  if (location.engine === 'postgres') {
    const box = secretBox(options.secret, 'signet signing-p12 encryption');
    let stored = await findStoredSecret(options.storage.db.query, STORED_SECRET_NAME);
    if (stored === null) stored = await putStoredSecretIfAbsent(options.storage.db.query, STORED_SECRET_NAME, box.seal(await generateP12(password)));
    const p12 = openStoredP12(box, stored);
    return describeKey({ p12, password }, 'generated', 'The generated signing certificate kept in the database');
  }
  if (location.path === ':memory:') {
    return describeKey({ p12: await generateP12(password), password }, 'generated', 'The generated signing certificate');
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
async function keepFirst(file: string, create: () => Promise<Uint8Array>): Promise<void> {
  if (existsSync(file)) return;
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(temporary, await create(), { flag: 'wx', mode: 0o600 });
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
 * nonRepudiation, ten years) with its key, as PKCS#12: the key in a shrouded bag (PBES2: PBKDF2 with HMAC-SHA-256,
 * AES-256-CBC), the certificate beside it, the whole under an HMAC-SHA-256 MAC, as OpenSSL 3 writes them. WebCrypto
 * makes the key; pkijs (over asn1js, both of which the sealing uses anyway) writes the certificate and the PKCS#12.
 */
export async function generateP12(password: string, now = new Date()): Promise<Uint8Array> {
  // An engine of our own: @libpdf/core installs its own as pkijs's global one, with other method signatures.
  const engine = new pkijs.CryptoEngine({ name: 'signet', crypto: webcrypto as Crypto });
  const { privateKey, publicKey } = await webcrypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  );
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1js.Integer({ valueHex: serialNumber(randomBytes(16)) });
  certificate.subject = generatedName();
  certificate.issuer = generatedName();
  certificate.notBefore.value = new Date(now.getTime() - CLOCK_SKEW_MS);
  certificate.notAfter.value = new Date(now.getTime() + TEN_YEARS_MS);
  await certificate.subjectPublicKeyInfo.importKey(publicKey, engine);
  const keyIdentifier = createHash('sha1').update(certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest();
  // KeyUsage is a BIT STRING: digitalSignature (bit 0) and nonRepudiation (bit 1), six unused bits.
  const keyUsage = new asn1js.BitString({ valueHex: new Uint8Array([0b1100_0000]), unusedBits: 6 });
  certificate.extensions = [
    new pkijs.Extension({
      extnID: '2.5.29.19',
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false),
    }),
    new pkijs.Extension({ extnID: '2.5.29.15', critical: true, extnValue: keyUsage.toBER(false) }),
    new pkijs.Extension({ extnID: '2.5.29.14', extnValue: new asn1js.OctetString({ valueHex: keyIdentifier }).toBER(false) }),
  ];
  await certificate.sign(privateKey, 'SHA-256', engine);

  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', privateKey);
  const passwordBytes = new TextEncoder().encode(password).buffer as ArrayBuffer;
  const bagAttributes = [
    new pkijs.Attribute({ type: '1.2.840.113549.1.9.20', values: [new asn1js.BmpString({ value: FRIENDLY_NAME })] }),
    new pkijs.Attribute({ type: '1.2.840.113549.1.9.21', values: [new asn1js.OctetString({ valueHex: keyIdentifier })] }),
  ];
  const keyBag = new pkijs.PKCS8ShroudedKeyBag({ parsedValue: pkijs.PrivateKeyInfo.fromBER(pkcs8) });
  await keyBag.makeInternalValues(
    {
      password: passwordBytes,
      // pkijs draws the IV itself; its type asks for one all the same.
      contentEncryptionAlgorithm: { name: 'AES-CBC', length: 256, iv: new Uint8Array(16) },
      hmacHashAlgorithm: 'SHA-256',
      iterationCount: 2048,
    },
    engine,
  );
  const pfx = new pkijs.PFX({
    parsedValue: {
      integrityMode: 0,
      authenticatedSafe: new pkijs.AuthenticatedSafe({
        parsedValue: {
          safeContents: [
            {
              privacyMode: 0,
              value: new pkijs.SafeContents({
                safeBags: [
                  new pkijs.SafeBag({
                    bagId: '1.2.840.113549.1.12.10.1.3',
                    bagValue: new pkijs.CertBag({ parsedValue: certificate }),
                    bagAttributes,
                  }),
                  new pkijs.SafeBag({ bagId: '1.2.840.113549.1.12.10.1.2', bagValue: keyBag, bagAttributes }),
                ],
              }),
            },
          ],
        },
      }),
    },
  });
  await pfx.parsedValue!.authenticatedSafe!.makeInternalValues({ safeContents: [{}] }, engine);
  // The MAC key comes from PKCS#12's own derivation with `hmacHashAlgorithm`; pkijs only checks that the PBKDF2 hash is given.
  await pfx.makeInternalValues(
    { password: passwordBytes, iterations: 2048, pbkdf2HashAlgorithm: { name: 'SHA-256' }, hmacHashAlgorithm: 'SHA-256' },
    engine,
  );
  return new Uint8Array(pfx.toSchema().toBER(false));
}

/**
 * A certificate serial from random bytes, as DER wants it: positive (the first byte's high bit clear) and minimal
 * (the first byte not zero, or OpenSSL refuses the certificate as badly padded).
 */
export function serialNumber(random: Uint8Array): Uint8Array {
  const serial = Uint8Array.from(random);
  serial[0] = (serial[0]! & 0x7f) | 0x40;
  return serial;
}

/**
 * `GENERATED_SUBJECT` as a name of one attribute per RDN: pkijs writes the attributes it is given into one RDN
 * (`CN=… + O=…`), so the DER is built here and read back.
 */
function generatedName(): pkijs.RelativeDistinguishedNames {
  const rdns = GENERATED_SUBJECT.map(
    ([type, value]) => new asn1js.Set({ value: [new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) }).toSchema()] }),
  );
  return pkijs.RelativeDistinguishedNames.fromBER(new asn1js.Sequence({ value: rdns }).toBER(false));
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
