import { createHash, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { HttpTimestampAuthority, P12Signer, PDF, PlaceholderError, SignerError, TimestampError } from '@libpdf/core';
import { SealError } from '../errors.js';
import type { SigningKey } from '../types.js';
import { checkSignerInfo, findSignatureDictionaries, nodeHashName, parseSignedData } from './verify-pdf.js';

export interface SignPdfOptions {
  key: SigningKey;
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
  const signer = await openSigningKey(options.key, options.signingTime);
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

/**
 * Opens a PKCS#12 key and checks that its certificate is valid at `at`: libpdf would sign with an expired
 * certificate without complaint. Throws a non-retryable `SealError` naming the cause.
 * @example const signer = await openSigningKey({ p12, password }, new Date())
 */
export async function openSigningKey(key: SigningKey, at: Date): Promise<P12Signer> {
  let signer: P12Signer;
  try {
    signer = await P12Signer.create(key.p12, key.password);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const message = /integrity|mac/i.test(detail)
      ? 'The signing certificate (PKCS#12) does not open with its password: wrong SIGNET_SIGNING_P12_PASSWORD?'
      : `The signing certificate (PKCS#12) cannot be read: ${detail}`;
    throw new SealError(message, { retryable: false, cause: error });
  }
  const certificate = new X509Certificate(signer.certificate);
  if (at.getTime() < Date.parse(certificate.validFrom)) {
    const message = `The signing certificate is not valid yet: valid from ${certificate.validFrom}`;
    throw new SealError(message, { retryable: false });
  }
  if (at.getTime() > Date.parse(certificate.validTo)) {
    const message = `The signing certificate has expired: valid until ${certificate.validTo}`;
    throw new SealError(message, { retryable: false });
  }
  return signer;
}

async function signOnce(
  input: Uint8Array,
  signer: P12Signer,
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
  let token: pkijs.SignedData;
  let tstInfoBytes: Uint8Array<ArrayBuffer>;
  let imprint: pkijs.MessageImprint;
  try {
    token = parseSignedData(new Uint8Array(attribute.values[0].toBER()));
    const eContent = token.encapContentInfo;
    if (eContent.eContentType !== OID_TST_INFO) throw new Error(`it holds ${eContent.eContentType}, not a TSTInfo`);
    tstInfoBytes = new Uint8Array((eContent.eContent as asn1js.OctetString).getValue());
    imprint = pkijs.TSTInfo.fromBER(tstInfoBytes).messageImprint;
  } catch (error) {
    throw badToken(`the token cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
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
