import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** What one signature dictionary of a PDF proves about the bytes it covers. */
export interface PdfSignatureCheck {
  /** `[offset, length, offset, length]` as written in the file. */
  byteRange: [number, number, number, number];
  /** The ranges start at 0, end at the end of the file and leave out exactly the `/Contents` hex string. */
  coversWholeFile: boolean;
  /** The CMS `messageDigest` equals the digest of the covered bytes. */
  digestMatches: boolean;
  /** The CMS signature over its signed attributes verifies with the certificate it names. */
  signatureValid: boolean;
  /** Hex SHA-256 of the signer certificate's DER; null when the CMS cannot be read. */
  certificateSha256: string | null;
  /** The claimed signing time (`/M`, else the CMS signing-time attribute), ISO 8601 UTC. */
  signingTime?: string;
  /** The dictionary's `/Reason`, decoded. */
  reason?: string;
}

/** One `/ByteRange` found in the raw bytes, with what the lenient scan found beside it. */
export interface SignatureDictionary {
  byteRange: [number, number, number, number];
  /** Where the `/Contents` hex string sits: `start` is its `<`, `end` is just past its `>`. */
  contents: { start: number; end: number; der: Uint8Array } | null;
  /** The raw text of the object holding it (latin1), for `/Reason` and `/M`. */
  dictionary: string;
}

const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_SIGNING_TIME = '1.2.840.113549.1.9.5';
/** More `/ByteRange`s than any real document carries; a crafted file cannot make the scan do unbounded work. */
const MAX_SIGNATURES = 64;

/**
 * Checks every signature dictionary in a PDF, reading the raw bytes rather than parsing the document, so a damaged
 * or truncated file still gets an answer. Garbage yields an empty list; it never throws.
 * @example
 * const [seal] = await verifyPdfSignatures(bytes);
 * const intact = seal?.coversWholeFile && seal.digestMatches && seal.signatureValid;
 */
export async function verifyPdfSignatures(bytes: Uint8Array): Promise<PdfSignatureCheck[]> {
  const checks: PdfSignatureCheck[] = [];
  for (const found of findSignatureDictionaries(bytes)) checks.push(await checkSignature(bytes, found));
  return checks;
}

/**
 * The signature dictionaries in file order, found by scanning for `/ByteRange [a b c d]` and the `/Contents <hex>`
 * of the same object.
 * @example const last = findSignatureDictionaries(bytes).at(-1)
 */
export function findSignatureDictionaries(bytes: Uint8Array): SignatureDictionary[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const found: SignatureDictionary[] = [];
  const byteRanges = /\/ByteRange\s*\[\s*(\d{1,15})\s+(\d{1,15})\s+(\d{1,15})\s+(\d{1,15})\s*\]/g;
  for (const match of text.matchAll(byteRanges)) {
    if (found.length === MAX_SIGNATURES) break;
    const at = match.index;
    const objectStart = Math.max(text.lastIndexOf('endobj', at), 0);
    const nextEnd = text.indexOf('endobj', at);
    const objectEnd = nextEnd === -1 ? text.length : nextEnd;
    const dictionary = text.slice(objectStart, objectEnd);
    const byteRange = match.slice(1, 5).map(Number) as SignatureDictionary['byteRange'];
    found.push({ byteRange, contents: findContents(bytes, dictionary, objectStart), dictionary });
  }
  return found;
}

/**
 * The CMS SignedData inside a signature's `/Contents` (trailing zero padding is ignored).
 * @example const signedData = parseSignedData(dictionary.contents.der)
 */
export function parseSignedData(der: Uint8Array): pkijs.SignedData {
  const contentInfo = pkijs.ContentInfo.fromBER(new Uint8Array(der));
  if (contentInfo.contentType !== OID_SIGNED_DATA) throw new Error(`Not a CMS SignedData: ${contentInfo.contentType}`);
  return new pkijs.SignedData({ schema: contentInfo.content });
}

/**
 * The certificate a SignerInfo names (by issuer and serial number, or by subject key identifier).
 * @example const certificate = signerCertificate(signedData, signedData.signerInfos[0])
 */
export function signerCertificate(
  signedData: pkijs.SignedData,
  signerInfo: pkijs.SignerInfo,
): pkijs.Certificate | null {
  const certificates = (signedData.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate,
  );
  const sid = signerInfo.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certificates.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber)) ?? null;
  }
  // SubjectKeyIdentifier: [0] IMPLICIT OCTET STRING, which asn1js may read as constructed around the octets.
  const keyIdBlock = (sid.idBlock.isConstructed ? sid.valueBlock.value[0] : sid) as asn1js.OctetString;
  const keyId = Buffer.from(keyIdBlock.valueBlock.valueHexView).toString('hex');
  return (
    certificates.find((c) => {
      const extension = c.extensions?.find((e) => e.extnID === '2.5.29.14');
      const value = extension?.parsedValue as asn1js.OctetString | undefined;
      return value !== undefined && Buffer.from(value.valueBlock.valueHexView).toString('hex') === keyId;
    }) ?? null
  );
}

/** Digest of the bytes a SignerInfo's algorithm names, e.g. `sha256` for 2.16.840.1.101.3.4.2.1. */
export function nodeHashName(algorithm: pkijs.AlgorithmIdentifier): string {
  const names: Record<string, string> = {
    '2.16.840.1.101.3.4.2.1': 'sha256',
    '2.16.840.1.101.3.4.2.2': 'sha384',
    '2.16.840.1.101.3.4.2.3': 'sha512',
    '1.3.14.3.2.26': 'sha1',
  };
  const name = names[algorithm.algorithmId];
  if (name === undefined) throw new Error(`Unsupported digest algorithm ${algorithm.algorithmId}`);
  return name;
}

async function checkSignature(bytes: Uint8Array, found: SignatureDictionary): Promise<PdfSignatureCheck> {
  const [start1, length1, start2, length2] = found.byteRange;
  const { contents } = found;
  const check: PdfSignatureCheck = {
    byteRange: found.byteRange,
    coversWholeFile:
      contents !== null &&
      start1 === 0 &&
      start1 + length1 === contents.start &&
      start2 === contents.end &&
      start2 + length2 === bytes.byteLength,
    digestMatches: false,
    signatureValid: false,
    certificateSha256: null,
    signingTime: pdfDate(literalOf(found.dictionary, 'M')),
    reason: literalOf(found.dictionary, 'Reason'),
  };
  if (contents === null) return check;
  // A file damaged or crafted so that its CMS cannot be read is an answer ("not intact"), not an error.
  try {
    const signedData = parseSignedData(contents.der);
    const covered = coveredBytes(bytes, found.byteRange);
    const result = await checkSignerInfo(signedData, covered ?? []);
    if (result.certificate !== null) {
      check.certificateSha256 = certificateSha256(new Uint8Array(result.certificate.toSchema().toBER()));
    }
    check.digestMatches = covered !== null && result.digestMatches;
    check.signatureValid = result.signatureValid;
    check.signingTime ??= signingTimeAttribute(signedData.signerInfos[0]?.signedAttrs?.attributes ?? []);
  } catch {
    return check;
  }
  return check;
}

/**
 * Checks a CMS SignedData's first signer: its `messageDigest` attribute against the digest of `content` (the
 * detached or encapsulated data, in parts), and its signature over the signed attributes with the certificate it
 * names.
 * @example const { digestMatches, signatureValid } = await checkSignerInfo(parseSignedData(der), [signedBytes])
 */
export async function checkSignerInfo(
  signedData: pkijs.SignedData,
  content: Uint8Array[],
): Promise<{ certificate: pkijs.Certificate | null; digestMatches: boolean; signatureValid: boolean }> {
  const signerInfo = signedData.signerInfos[0];
  if (signerInfo?.signedAttrs === undefined) return { certificate: null, digestMatches: false, signatureValid: false };
  const certificate = signerCertificate(signedData, signerInfo);
  const messageDigest = signerInfo.signedAttrs.attributes.find((a) => a.type === OID_MESSAGE_DIGEST)?.values[0];
  const hash = createHash(nodeHashName(signerInfo.digestAlgorithm));
  for (const part of content) hash.update(part);
  const digestMatches =
    messageDigest instanceof asn1js.OctetString && hash.digest().equals(messageDigest.valueBlock.valueHexView);
  if (certificate === null) return { certificate, digestMatches, signatureValid: false };
  const engine = pkijs.getCrypto(true);
  const signatureValid = await engine.verifyWithPublicKey(
    signerInfo.signedAttrs.encodedValue,
    signerInfo.signature,
    certificate.subjectPublicKeyInfo,
    signerInfo.signatureAlgorithm,
    engine.getAlgorithmByOID(signerInfo.digestAlgorithm.algorithmId, true, 'digestAlgorithm').name,
  );
  return { certificate, digestMatches, signatureValid };
}

function findContents(bytes: Uint8Array, dictionary: string, objectStart: number): SignatureDictionary['contents'] {
  const match = /\/Contents\s*<([0-9A-Fa-f\s]*)>/.exec(dictionary);
  if (match === null) return null;
  const start = objectStart + match.index + match[0].indexOf('<');
  const end = objectStart + match.index + match[0].length;
  if (end > bytes.byteLength) return null;
  return { start, end, der: new Uint8Array(Buffer.from(match[1]!.replace(/\s/g, ''), 'hex')) };
}

/** The two byte ranges a `/ByteRange` covers, or null when they do not lie inside the file. */
export function coveredBytes(bytes: Uint8Array, [start1, length1, start2, length2]: number[]): Uint8Array[] | null {
  const inFile = (start: number, length: number) => start + length <= bytes.byteLength;
  if (!inFile(start1!, length1!) || !inFile(start2!, length2!)) return null;
  return [bytes.subarray(start1!, start1! + length1!), bytes.subarray(start2!, start2! + length2!)];
}

function signingTimeAttribute(attributes: pkijs.Attribute[]): string | undefined {
  const value = attributes.find((a) => a.type === OID_SIGNING_TIME)?.values[0];
  if (value instanceof asn1js.UTCTime || value instanceof asn1js.GeneralizedTime) return value.toDate().toISOString();
  return undefined;
}

/**
 * A text string entry of a dictionary's raw text, decoded: a literal `(…)` with its escapes, or `<hex>`; UTF-16BE
 * with a byte order mark, UTF-8 with one (PDF 2.0), else PDFDocEncoding (read as latin1, which agrees on the
 * printable ASCII and Latin-1 ranges).
 */
function literalOf(dictionary: string, key: string): string | undefined {
  const keyAt = new RegExp(`/${key}\\s*([(<])`).exec(dictionary);
  if (keyAt === null) return undefined;
  const from = keyAt.index + keyAt[0].length;
  const raw = keyAt[1] === '<' ? hexString(dictionary, from) : literalString(dictionary, from);
  if (raw === undefined) return undefined;
  if (raw[0] === 0xfe && raw[1] === 0xff) return new TextDecoder('utf-16be').decode(raw.subarray(2));
  if (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) return new TextDecoder('utf-8').decode(raw.subarray(3));
  return Buffer.from(raw).toString('latin1');
}

function hexString(text: string, from: number): Uint8Array | undefined {
  const end = text.indexOf('>', from);
  if (end === -1) return undefined;
  const hex = text.slice(from, end).replace(/\s/g, '');
  return new Uint8Array(Buffer.from(hex.length % 2 === 0 ? hex : `${hex}0`, 'hex'));
}

const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };

function literalString(text: string, from: number): Uint8Array | undefined {
  const out: number[] = [];
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      const next = text[++i];
      if (next === undefined) return undefined;
      const octal = /^[0-7]{1,3}/.exec(text.slice(i, i + 3));
      if (octal !== null) {
        out.push(parseInt(octal[0], 8) & 0xff);
        i += octal[0].length - 1;
      } else if (next === '\r' || next === '\n') {
        if (next === '\r' && text[i + 1] === '\n') i++;
      } else {
        out.push(ESCAPES[next] ?? next.charCodeAt(0));
      }
      continue;
    }
    if (c === '(') depth++;
    if (c === ')' && --depth === 0) return new Uint8Array(out);
    out.push(c.charCodeAt(0));
  }
  return undefined;
}

/** `D:YYYYMMDDHHmmSS+HH'mm'` (trailing parts optional) → ISO 8601 UTC. */
function pdfDate(value: string | undefined): string | undefined {
  const match = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{0,2}'?)?/.exec(value ?? '');
  if (match === null) return undefined;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', zone = 'Z'] = match;
  const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(3).replace(/'/g, '').padEnd(2, '0')}`;
  const time = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/**
 * Hex SHA-256 of a DER certificate, as `verifyPdfSignatures` reports it.
 * @example certificateSha256(new X509Certificate(pem).raw)
 */
export function certificateSha256(der: Uint8Array): string {
  return createHash('sha256').update(der).digest('hex');
}
