import { createHash, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { PDF, PdfRef, PdfStream, type PdfArray, type PdfObject } from '@libpdf/core';
import type { PadesLevel, PadesReport } from '@signet/contract';
import { crlFinding, isSelfIssued, ocspFinding, parseCertificate, subjectName, type RevocationFinding } from './revocation.js';
import {
  certificateSha256,
  checkSignerInfo,
  coveredBytes,
  findSignatureDictionaries,
  nodeHashName,
  parseSignedData,
  signerCertificate,
  verifyPdfSignatures,
  type SignatureDictionary,
} from './verify-pdf.js';

type ChainCertificate = PadesReport['chain'][number];

const OID_TIMESTAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';
const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';

/** The validation data a file's DSS holds, DER. */
interface Dss {
  certificates: Uint8Array[];
  ocsps: Uint8Array[];
  crls: Uint8Array[];
}

/** A timestamp token read and checked against the bytes it should stamp. */
interface CheckedToken {
  valid: boolean;
  genTime?: string;
  certificates: Uint8Array[];
}

/**
 * What a PDF's PAdES signature proves from the file alone, nothing fetched: the last signature that is not a
 * document timestamp, its level, its chain and its timestamp authority's with each certificate's revocation status
 * from the DSS, and its timestamps' times. Null when the file has no such signature. A B-LTA file's last
 * signature is its document timestamp (`/Type /DocTimeStamp`): it is read as one, not as the seal.
 *
 * The level: null when the signature does not verify; B-B; B-T with a timestamp token that stamps the signature
 * value and verifies; B-LT when, besides, the DSS says `good` of every certificate of both chains but the roots;
 * B-LTA when, besides, a later document timestamp stamps the file up to itself and verifies, its authority's
 * certificates `good` too. Whether anything changed since is `intact`'s question (`verifySeal`), not this one's.
 * @example const report = await padesReport(bytes) // { level: 'B-LTA', chain: [...], ... }
 */
export async function padesReport(bytes: Uint8Array): Promise<PadesReport | null> {
  const dictionaries = findSignatureDictionaries(bytes);
  const isDocumentTimestamp = (d: SignatureDictionary) => /\/DocTimeStamp\b|\/ETSI\.RFC3161\b/.test(d.dictionary);
  const index = dictionaries.findLastIndex((d) => !isDocumentTimestamp(d));
  const found = dictionaries[index];
  if (found?.contents == null) return null;
  const check = (await verifyPdfSignatures(bytes))[index];
  let signedData: pkijs.SignedData;
  try {
    signedData = parseSignedData(found.contents.der);
  } catch {
    return { level: null, chain: [], timestampChain: [], ...(check?.signingTime ? { signingTime: check.signingTime } : {}) };
  }
  const dss = await readDss(bytes);
  const signerInfo = signedData.signerInfos[0];
  const signer = signerInfo ? signerCertificate(signedData, signerInfo) : null;
  const pool = [...certificatesOf(signedData), ...dss.certificates];
  const chain = signer ? await describeChain(orderChain(der(signer), pool), dss) : [];

  const tokenAttribute = signerInfo?.unsignedAttrs?.attributes.find((a) => a.type === OID_TIMESTAMP_TOKEN);
  const signatureToken = tokenAttribute
    ? await checkToken(new Uint8Array(tokenAttribute.values[0].toBER()), [signerInfo!.signature.valueBlock.valueHexView])
    : undefined;
  const timestampChain = signatureToken?.certificates[0]
    ? await describeChain(orderChain(signatureToken.certificates[0], [...signatureToken.certificates, ...dss.certificates]), dss)
    : [];

  const end = found.byteRange[2] + found.byteRange[3];
  let documentToken: CheckedToken | undefined;
  let documentChain: ChainCertificate[] = [];
  for (const later of dictionaries.slice(index + 1).filter(isDocumentTimestamp)) {
    const covered = coveredBytes(bytes, later.byteRange);
    if (later.contents === null || covered === null || later.byteRange[0] !== 0 || later.byteRange[2] + later.byteRange[3] <= end) continue;
    documentToken = await checkToken(later.contents.der, covered, true);
    const first = documentToken.certificates[0];
    documentChain = first ? await describeChain(orderChain(first, [...documentToken.certificates, ...dss.certificates]), dss) : [];
  }

  const allGood = (certificates: ChainCertificate[]) =>
    certificates.length > 0 &&
    certificates.every((c, i) => c.revocation.status === 'good' || (i === certificates.length - 1 && c.subject === c.issuer));
  let level: PadesLevel | null = null;
  if (check?.digestMatches && check.signatureValid) {
    level = 'B-B';
    if (signatureToken?.valid) level = 'B-T';
    if (level === 'B-T' && allGood(chain) && allGood(timestampChain)) level = 'B-LT';
    if (level === 'B-LT' && documentToken?.valid && allGood(documentChain)) level = 'B-LTA';
  }
  return {
    level,
    ...(check?.signingTime ? { signingTime: check.signingTime } : {}),
    ...(signatureToken?.genTime ? { signatureTimestamp: signatureToken.genTime } : {}),
    ...(documentToken?.valid && documentToken.genTime ? { documentTimestamp: documentToken.genTime } : {}),
    chain,
    timestampChain,
  };
}

/**
 * Reads an RFC 3161 token and checks that it stamps `content` (the signature value, or the bytes a document
 * timestamp covers, in parts) and that its own signature verifies.
 */
async function checkToken(tokenDer: Uint8Array, content: Uint8Array[], padded = false): Promise<CheckedToken> {
  try {
    const token = parseSignedData(padded ? unpad(tokenDer) : tokenDer);
    if (token.encapContentInfo.eContentType !== OID_TST_INFO) return { valid: false, certificates: [] };
    const tstInfoBytes = new Uint8Array((token.encapContentInfo.eContent as asn1js.OctetString).getValue());
    const tstInfo = pkijs.TSTInfo.fromBER(tstInfoBytes);
    const hash = createHash(nodeHashName(tstInfo.messageImprint.hashAlgorithm));
    for (const part of content) hash.update(part);
    const stamps = hash.digest().equals(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView);
    const { certificate, digestMatches, signatureValid } = await checkSignerInfo(token, [tstInfoBytes]);
    const others = certificatesOf(token).filter((c) => certificate === null || Buffer.compare(c, der(certificate)) !== 0);
    return {
      valid: stamps && digestMatches && signatureValid,
      genTime: tstInfo.genTime.toISOString(),
      certificates: certificate ? [der(certificate), ...others] : others,
    };
  } catch {
    return { valid: false, certificates: [] };
  }
}

/** A document timestamp's `/Contents` is the token followed by zeros: its DER length says where it ends. */
function unpad(bytes: Uint8Array): Uint8Array {
  const { offset } = asn1js.fromBER(new Uint8Array(bytes));
  return offset > 0 ? bytes.subarray(0, offset) : bytes;
}

async function readDss(bytes: Uint8Array): Promise<Dss> {
  const dss: Dss = { certificates: [], ocsps: [], crls: [] };
  try {
    const pdf = await PDF.load(bytes);
    const resolve = (ref: PdfRef): PdfObject | null => pdf.getObject(ref);
    const dictionary = pdf.getCatalog().getDict('DSS', resolve);
    const streams = (array: PdfArray | undefined) =>
      (array?.toArray() ?? [])
        .map((item) => (item instanceof PdfRef ? resolve(item) : item))
        .filter((item): item is PdfStream => item instanceof PdfStream)
        .map((stream) => new Uint8Array(stream.getDecodedData()));
    dss.certificates = streams(dictionary?.getArray('Certs', resolve));
    dss.ocsps = streams(dictionary?.getArray('OCSPs', resolve));
    dss.crls = streams(dictionary?.getArray('CRLs', resolve));
  } catch {
    // A file libpdf cannot read has no DSS we can trust: its levels stop at B-T.
  }
  return dss;
}

/** `leaf`, then its issuer found in `pool`, and so on up to a self-issued root or a missing issuer. */
function orderChain(leaf: Uint8Array, pool: Uint8Array[]): Uint8Array[] {
  const chain = [leaf];
  for (let i = 0; i < 10; i++) {
    const last = new X509Certificate(chain.at(-1)!);
    if (last.issuer === last.subject) break;
    const issuer = pool.find((c) => {
      const candidate = new X509Certificate(c);
      return candidate.subject === last.issuer && last.checkIssued(candidate) && last.verify(candidate.publicKey);
    });
    if (issuer === undefined || chain.some((c) => Buffer.compare(c, issuer) === 0)) break;
    chain.push(issuer);
  }
  return chain;
}

async function describeChain(chain: Uint8Array[], dss: Dss): Promise<ChainCertificate[]> {
  const described: ChainCertificate[] = [];
  for (let i = 0; i < chain.length; i++) {
    const certificate = parseCertificate(chain[i]!);
    const x509 = new X509Certificate(chain[i]!);
    const issuer = chain[i + 1] ? parseCertificate(chain[i + 1]!) : null;
    const finding = issuer && !isSelfIssued(certificate) ? await findingIn(dss, certificate, issuer) : null;
    described.push({
      subject: subjectName(certificate),
      issuer: subjectName(issuerAsSubject(certificate)),
      sha256: certificateSha256(chain[i]!),
      notBefore: new Date(x509.validFrom).toISOString(),
      notAfter: new Date(x509.validTo).toISOString(),
      revocation: finding
        ? { status: finding.status, source: finding.source, producedAt: finding.producedAt, ...(finding.revokedAt ? { revokedAt: finding.revokedAt } : {}) }
        : { status: 'none' },
    });
  }
  return described;
}

async function findingIn(dss: Dss, certificate: pkijs.Certificate, issuer: pkijs.Certificate): Promise<RevocationFinding | null> {
  for (const response of dss.ocsps) {
    const finding = await ocspFinding(response, certificate, issuer).catch(() => null);
    if (finding) return finding;
  }
  for (const crl of dss.crls) {
    const finding = await crlFinding(crl, certificate, issuer).catch(() => null);
    if (finding) return finding;
  }
  return null;
}

/** A certificate whose subject is `certificate`'s issuer name, for `subjectName`. */
function issuerAsSubject(certificate: pkijs.Certificate): pkijs.Certificate {
  return new pkijs.Certificate({ subject: certificate.issuer });
}

function certificatesOf(signedData: pkijs.SignedData): Uint8Array[] {
  return (signedData.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate).map(der);
}

function der(certificate: pkijs.Certificate): Uint8Array {
  return new Uint8Array(certificate.toSchema().toBER());
}
