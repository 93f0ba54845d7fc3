import { createHash, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { HttpTimestampAuthority, P12Signer, PDF, PlaceholderError, SignerError, TimestampError, type Signer } from '@libpdf/core';
import type { PadesLevel } from '@signet/contract';
import { SealError } from '../errors.js';
import type { SealingKey } from '../types.js';
import type { Pkcs11Settings } from './pkcs11-config.js';
import { Pkcs11Signer } from './pkcs11-signer.js';
import { DEFAULT_REVOCATION_TIMEOUT_MS, RevocationFetcher, RevokedCertificateError, type Unresolved } from './revocation-fetch.js';
import { checkSignerInfo, coveredBytes, findSignatureDictionaries, nodeHashName, parseSignedData } from './verify-pdf.js';

export interface SignPdfOptions {
  key: SealingKey;
  /** RFC 3161 timestamp authority: set, the signature is PAdES B-T; unset, B-B. */
  tsaUrl?: string;
  /** How long the timestamp authority may take to answer (default 5 s); past it the seal is retried later. */
  tsaTimeoutMs?: number;
  /** The claimed signing time: the signature dictionary's `/M`. */
  signingTime: Date;
  /** `/Reason`: how the job layer recognises its own seals. Avoid `\`, `(`, `)`: libpdf 0.4.2 escapes them twice. */
  reason: string;
  location?: string;
  /** The signature field's name (`/T`); libpdf picks `Signature_N` when unset. */
  name?: string;
  /**
   * The PAdES level asked for (`SIGNET_PADES_LEVEL`); default B-T with `tsaUrl`, else B-B. B-T and above need
   * `tsaUrl`. B-LT adds the DSS (the chains' certificates, OCSP responses and CRLs, and VRI); B-LTA adds a
   * document timestamp over it all.
   */
  level?: PadesLevel;
  /** Each OCSP or CRL request's time limit (default 5 s, `SIGNET_REVOCATION_TIMEOUT_MS`). */
  revocationTimeoutMs?: number;
  /**
   * The seal job's last attempt: revocation data (or, for B-LTA, the document timestamp) that cannot be had
   * now yields the highest level reached, with the reason, instead of a retryable `SealError`.
   */
  finalAttempt?: boolean;
}

/** A signed PDF and the PAdES level it reached: lower than asked only on a final attempt, with the reason. */
export interface SignedPdf {
  bytes: Uint8Array;
  level: PadesLevel;
  /** Why `level` is lower than the one asked for. */
  levelReason?: string;
}

/** Past this the timestamp authority counts as unreachable and the job is retried later (`SIGNET_TSA_TIMEOUT_MS`). */
export const DEFAULT_TSA_TIMEOUT_MS = 5_000;
const OID_TIMESTAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';
const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';

/**
 * Signs a PDF as PAdES baseline B-B (`ETSI.CAdES.detached`, SHA-256), or B-T when `tsaUrl` is given, as an
 * incremental update: the input stays a byte prefix of the output. Failures are `SealError`s: a timestamp authority
 * that fails is `retryable`; a bad key, an expired certificate or an encrypted input is not.
 *
 * Deliberate deviation from the PAdES baseline: libpdf 0.4.2 always adds the CMS signing-time attribute, which
 * ETSI EN 319 142-1 forbids (the claimed time belongs in `/M` alone). pdfsig and openssl accept it; strict ETSI
 * validators may flag it. Upstream: LibPDF-js/core#86.
 * @example
 * const sealed = await signPdf(flattened, { key, signingTime: new Date(sealedAt), reason: 'Sealed by Signet: …' });
 */
export async function signPdf(pdf: Uint8Array, options: SignPdfOptions): Promise<Uint8Array> {
  return (await signPdfAtLevel(pdf, options)).bytes;
}

/**
 * `signPdf`, up to the level asked for, saying which it reached. For B-LT and B-LTA the signing chain's
 * revocation status is fetched first (`RevocationFetcher`): a revoked certificate refuses to seal, not
 * retryably. Validation data that cannot be had now (a responder down) is a retryable `SealError`, except on the
 * final attempt, where the seal is B-T (or B-LT, when only the document timestamp failed) with the reason; data
 * that can never be had (a certificate naming no OCSP responder nor CRL) gives that lower level at once.
 * @example const { bytes, level } = await signPdfAtLevel(pdf, { ...options, level: 'B-LTA', tsaUrl })
 */
export async function signPdfAtLevel(pdf: Uint8Array, options: SignPdfOptions): Promise<SignedPdf> {
  const wanted = options.level ?? (options.tsaUrl === undefined ? 'B-B' : 'B-T');
  if (wanted !== 'B-B' && options.tsaUrl === undefined) {
    throw new SealError(`PAdES ${wanted} needs a timestamp authority (SIGNET_TSA_URL)`, { retryable: false });
  }
  const signer = await openSigningKey(options.key, options.signingTime);
  try {
    return await signAtLevel(pdf, signer, wanted, options);
  } finally {
    signer.close?.();
  }
}

async function signAtLevel(pdf: Uint8Array, signer: OpenedSigner, wanted: PadesLevel, options: SignPdfOptions): Promise<SignedPdf> {
  if (wanted === 'B-B') return { bytes: await signWithRetry(pdf, signer, { ...options, tsaUrl: undefined }), level: wanted };
  if (wanted === 'B-T') return { bytes: await signWithRetry(pdf, signer, options), level: wanted };

  const revocation = new RevocationFetcher({ timeoutMs: options.revocationTimeoutMs ?? DEFAULT_REVOCATION_TIMEOUT_MS });
  const chain = signingChain(signer);
  try {
    await revocation.checkChain(chain);
  } catch (error) {
    if (!(error instanceof RevokedCertificateError)) throw error;
    throw new SealError(`The signing certificate cannot seal: ${error.message}`, { retryable: false });
  }
  const signerMissing = revocation.unresolved(chain);
  const signed = await signWithRetry(pdf, signer, options);
  if (signerMissing.length > 0) return lowerLevel(signed, 'B-T', wanted, signerMissing, options);

  let longTerm: Uint8Array;
  try {
    const document = await PDF.load(signed);
    longTerm = (await document.addValidationData({ revocationProvider: revocation })).bytes;
  } catch (error) {
    // libpdf could not write the DSS into this file: the signature stands, at B-T.
    const reason = `the validation data could not be added: ${error instanceof Error ? error.message : String(error)}`;
    return lowerLevel(signed, 'B-T', wanted, [{ reason, passing: false }], options);
  }
  const ours = [...chain, ...timestampCertificates(signed)];
  const missing = revocation.unresolved(ours);
  if (missing.length > 0) return lowerLevel(signed, 'B-T', wanted, missing, options);
  if (wanted === 'B-LT') return { bytes: longTerm, level: 'B-LT' };

  let archived: Uint8Array;
  try {
    archived = await addDocumentTimestamp(longTerm, options, revocation);
  } catch (error) {
    const sealError = asSealError(error);
    const reason = `the document timestamp failed: ${sealError.message}`;
    return lowerLevel(longTerm, 'B-LT', wanted, [{ reason, passing: sealError.retryable }], options);
  }
  const archiveMissing = revocation.unresolved([...ours, ...timestampCertificates(archived)]);
  if (archiveMissing.length > 0) return lowerLevel(longTerm, 'B-LT', wanted, archiveMissing, options);
  return { bytes: archived, level: 'B-LTA' };
}

/**
 * A level not reached for a passing reason (a responder down) is a retryable failure before the final attempt;
 * on it, or for a reason no retry helps (a certificate naming no responder), the level reached and why.
 */
function lowerLevel(bytes: Uint8Array, level: PadesLevel, wanted: PadesLevel, missing: Unresolved[], options: SignPdfOptions): SignedPdf {
  const reason = missing.map((m) => m.reason).join('; ');
  if (!options.finalAttempt && missing.some((m) => m.passing)) {
    throw new SealError(`PAdES ${wanted} not reached (the seal is retried): ${reason}`, { retryable: true });
  }
  return { bytes, level, levelReason: `PAdES ${wanted} not reached: ${reason}` };
}

/**
 * Appends a document timestamp (`/DocTimeStamp`) over `bytes` and the validation data of its authority's chain,
 * and checks the token; a placeholder too small for the token is retried once, larger.
 */
async function addDocumentTimestamp(bytes: Uint8Array, options: SignPdfOptions, revocation: RevocationFetcher): Promise<Uint8Array> {
  const timestampAuthority = new HttpTimestampAuthority(options.tsaUrl!, { timeout: options.tsaTimeoutMs ?? DEFAULT_TSA_TIMEOUT_MS });
  let estimatedSize: number | undefined;
  for (;;) {
    try {
      const document = await PDF.load(bytes);
      const stamped = await document.addTimestamp({ timestampAuthority, longTermValidation: true, revocationProvider: revocation, estimatedSize });
      await checkDocumentTimestamp(stamped.bytes);
      return stamped.bytes;
    } catch (error) {
      if (error instanceof PlaceholderError && estimatedSize === undefined) {
        estimatedSize = error.requiredSize + 2048;
        continue;
      }
      throw error;
    }
  }
}

/** The signing certificate and its chain from the key, leaf first, each followed by its issuer. */
function signingChain(signer: Signer): Uint8Array[] {
  const chain = [signer.certificate];
  const rest = (signer.certificateChain ?? []).filter((c) => Buffer.compare(c, signer.certificate) !== 0);
  for (;;) {
    const last = new X509Certificate(chain.at(-1)!);
    if (last.issuer === last.subject) return chain;
    const index = rest.findIndex((c) => new X509Certificate(c).subject === last.issuer);
    if (index === -1) return chain;
    chain.push(...rest.splice(index, 1));
  }
}

/** The certificates carried by the timestamp tokens of the last signature (or document timestamp). */
function timestampCertificates(bytes: Uint8Array): Uint8Array[] {
  const contents = findSignatureDictionaries(bytes).at(-1)?.contents;
  if (!contents) return [];
  const signedData = parseSignedData(contents.der);
  const isToken = signedData.encapContentInfo.eContentType === OID_TST_INFO;
  const tokens = isToken
    ? [signedData]
    : (signedData.signerInfos[0]?.unsignedAttrs?.attributes ?? [])
        .filter((a) => a.type === OID_TIMESTAMP_TOKEN)
        .map((a) => parseSignedData(new Uint8Array(a.values[0].toBER())));
  return tokens.flatMap((token) =>
    (token.certificates ?? []).filter((c) => c instanceof pkijs.Certificate).map((c) => new Uint8Array(c.toSchema().toBER())),
  );
}

/** The document timestamp just added stamps the bytes its `/ByteRange` covers, and its signature verifies. */
async function checkDocumentTimestamp(bytes: Uint8Array): Promise<void> {
  const found = findSignatureDictionaries(bytes).at(-1);
  const covered = found && coveredBytes(bytes, found.byteRange);
  if (!found?.contents || !covered) throw badToken('no document timestamp was added');
  const { token, tstInfoBytes, imprint } = readToken(found.contents.der);
  const hash = createHash(nodeHashName(imprint.hashAlgorithm));
  for (const part of covered) hash.update(part);
  if (!hash.digest().equals(imprint.hashedMessage.valueBlock.valueHexView)) {
    throw badToken('the document timestamp stamps something other than this document');
  }
  const { digestMatches, signatureValid } = await checkSignerInfo(token, [tstInfoBytes]);
  if (!digestMatches || !signatureValid) throw badToken("the document timestamp's own signature does not verify");
}

function readToken(der: Uint8Array): { token: pkijs.SignedData; tstInfoBytes: Uint8Array<ArrayBuffer>; imprint: pkijs.MessageImprint } {
  try {
    const token = parseSignedData(der);
    const eContent = token.encapContentInfo;
    if (eContent.eContentType !== OID_TST_INFO) throw new Error(`it holds ${eContent.eContentType}, not a TSTInfo`);
    const tstInfoBytes = new Uint8Array((eContent.eContent as asn1js.OctetString).getValue());
    return { token, tstInfoBytes, imprint: pkijs.TSTInfo.fromBER(tstInfoBytes).messageImprint };
  } catch (error) {
    throw badToken(`the token cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
}

async function signWithRetry(pdf: Uint8Array, signer: Signer, options: SignPdfOptions): Promise<Uint8Array> {
  let estimatedSize: number | undefined;
  for (;;) {
    try {
      const signed = await signOnce(pdf, signer, options, estimatedSize);
      if (options.tsaUrl !== undefined) await checkTimestampToken(signed);
      return signed;
    } catch (error) {
      // The default 12 KiB placeholder can be too small for a long chain plus a timestamp token: retry once, larger.
      if (error instanceof PlaceholderError && estimatedSize === undefined) {
        estimatedSize = error.requiredSize + 2048;
        continue;
      }
      throw asSealError(error);
    }
  }
}

/** A signer ready to sign; one over a PKCS#11 token holds a session until `close()`. */
export type OpenedSigner = Signer & { close?: () => void };

/**
 * Opens the key — a PKCS#12, or a key in a PKCS#11 token (a session of this process with the token,
 * `Pkcs11Signer`) — and checks that its certificate is valid at `at`: libpdf would sign with an expired
 * certificate without complaint. Throws a non-retryable `SealError` naming the cause; the caller closes the signer.
 * @example const signer = await openSigningKey({ p12, password }, new Date())
 */
export async function openSigningKey(key: SealingKey, at: Date): Promise<OpenedSigner> {
  const signer: OpenedSigner = 'pkcs11' in key ? await openPkcs11(key.pkcs11) : await openP12(key.p12, key.password);
  try {
    checkValidity(signer.certificate, at);
  } catch (error) {
    signer.close?.();
    throw error;
  }
  return signer;
}

async function openPkcs11(settings: Pkcs11Settings): Promise<Pkcs11Signer> {
  try {
    return await Pkcs11Signer.open(settings);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new SealError(`The signing key (PKCS#11) cannot be used: ${detail}`, { retryable: false, cause: error });
  }
}

async function openP12(p12: Uint8Array, password: string): Promise<P12Signer> {
  let signer: P12Signer;
  try {
    signer = await P12Signer.create(p12, password);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const message = /integrity|mac/i.test(detail)
      ? 'The signing certificate (PKCS#12) does not open with its password: wrong SIGNET_SIGNING_P12_PASSWORD?'
      : `The signing certificate (PKCS#12) cannot be read: ${detail}`;
    throw new SealError(message, { retryable: false, cause: error });
  }
  return signer;
}

function checkValidity(der: Uint8Array, at: Date): void {
  const certificate = new X509Certificate(der);
  if (at.getTime() < Date.parse(certificate.validFrom)) {
    const message = `The signing certificate is not valid yet: valid from ${certificate.validFrom}`;
    throw new SealError(message, { retryable: false });
  }
  if (at.getTime() > Date.parse(certificate.validTo)) {
    const message = `The signing certificate has expired: valid until ${certificate.validTo}`;
    throw new SealError(message, { retryable: false });
  }
}

async function signOnce(
  input: Uint8Array,
  signer: Signer,
  options: SignPdfOptions,
  estimatedSize: number | undefined,
): Promise<Uint8Array> {
  const document = await PDF.load(input);
  // An owner-password file would be signed, but libpdf then appends a revision after the signature
  // ("Not total document signed"); a user-password one does not open at all.
  if (document.isEncrypted) {
    throw new SealError('The PDF is encrypted; an encrypted PDF cannot be sealed', { retryable: false });
  }
  const { bytes } = await document.sign({
    signer,
    subFilter: 'ETSI.CAdES.detached',
    digestAlgorithm: 'SHA-256',
    level: options.tsaUrl === undefined ? 'B-B' : 'B-T',
    timestampAuthority:
      options.tsaUrl === undefined
        ? undefined
        : new HttpTimestampAuthority(options.tsaUrl, { timeout: options.tsaTimeoutMs ?? DEFAULT_TSA_TIMEOUT_MS }),
    signingTime: options.signingTime,
    reason: options.reason,
    location: options.location,
    fieldName: options.name,
    estimatedSize,
  });
  if (bytes.byteLength <= input.byteLength || Buffer.compare(bytes.subarray(0, input.byteLength), input) !== 0) {
    throw new SealError('Signing rewrote the original PDF instead of appending to it', { retryable: false });
  }
  return bytes;
}

/**
 * libpdf checks the authority's HTTP and PKI status, not what it stamped: this checks that the token embedded in
 * the (last) signature stamps that signature's value with SHA-256, and that the token's own signature verifies.
 */
async function checkTimestampToken(signed: Uint8Array): Promise<void> {
  const contents = findSignatureDictionaries(signed).at(-1)?.contents;
  if (!contents) throw new Error('The signed PDF has no signature dictionary');
  const signerInfo = parseSignedData(contents.der).signerInfos[0]!;
  const attribute = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === OID_TIMESTAMP_TOKEN);
  if (attribute === undefined) throw badToken('no timestamp token was embedded');
  const { token, tstInfoBytes, imprint } = readToken(new Uint8Array(attribute.values[0].toBER()));
  const expected = createHash('sha256').update(signerInfo.signature.valueBlock.valueHexView).digest();
  const stamped = imprint.hashedMessage.valueBlock.valueHexView;
  if (nodeHashName(imprint.hashAlgorithm) !== 'sha256' || !expected.equals(stamped)) {
    throw badToken('the token stamps something other than this signature');
  }
  const { digestMatches, signatureValid } = await checkSignerInfo(token, [tstInfoBytes]);
  if (!digestMatches || !signatureValid) throw badToken("the token's own signature does not verify");
}

function badToken(reason: string): SealError {
  return new SealError(`The timestamp authority's answer is unusable: ${reason}`, { retryable: true });
}

function asSealError(error: unknown): SealError {
  if (error instanceof SealError) return error;
  if (error instanceof TimestampError) {
    return new SealError(`The timestamp authority failed: ${error.message}`, { retryable: true, cause: error });
  }
  if (error instanceof SignerError) {
    return new SealError(`The signing key failed: ${error.message}`, { retryable: false, cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  if (/not authenticated|encrypt/i.test(detail)) {
    return new SealError(`The PDF is encrypted; an encrypted PDF cannot be sealed (${detail})`, {
      retryable: false,
      cause: error,
    });
  }
  return new SealError(`The PDF could not be signed: ${detail}`, { retryable: false, cause: error });
}
