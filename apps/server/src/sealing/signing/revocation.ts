import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * Reading revocation data (RFC 6960 OCSP responses, RFC 5280 CRLs) for one certificate: what the signer checks
 * before it seals at B-LT or B-LTA (`revocation-fetch.ts`), and what `POST /verify` reports from a sealed file's
 * DSS (`pades-report.ts`). A response counts only when its signature verifies against the certificate's issuer (or
 * a responder the issuer delegated to with id-kp-OCSPSigning).
 */

export type RevocationStatus = 'good' | 'revoked' | 'unknown';

/** What one OCSP response or CRL says of one certificate. */
export interface RevocationFinding {
  status: RevocationStatus;
  source: 'ocsp' | 'crl';
  /** When the answer was made: the OCSP response's `producedAt`, the CRL's `thisUpdate` (ISO 8601 UTC). */
  producedAt: string;
  /** For `revoked`: when (ISO 8601 UTC). */
  revokedAt?: string;
}

const OID_AIA = '1.3.6.1.5.5.7.1.1';
const OID_AIA_OCSP = '1.3.6.1.5.5.7.48.1';
const OID_CRL_DP = '2.5.29.31';
const OID_EKU = '2.5.29.37';
const OID_OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';
const OID_OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';
/** GeneralName's uniformResourceIdentifier. */
const URI = 6;

/**
 * A DER certificate as pkijs reads it.
 * @example const certificate = parseCertificate(new X509Certificate(pem).raw)
 */
export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  return pkijs.Certificate.fromBER(new Uint8Array(der));
}

/** Whether a certificate names itself as its issuer (a root; nothing vouches for its revocation). */
export function isSelfIssued(certificate: pkijs.Certificate): boolean {
  return certificate.subject.isEqual(certificate.issuer);
}

/** A one-line name of a certificate's subject: `CN=Signet Test Signer, O=Signet Test`. */
export function subjectName(certificate: pkijs.Certificate): string {
  const names: Record<string, string> = { '2.5.4.3': 'CN', '2.5.4.10': 'O', '2.5.4.11': 'OU', '2.5.4.6': 'C' };
  return certificate.subject.typesAndValues
    .map((entry) => `${names[entry.type] ?? entry.type}=${String(entry.value.valueBlock.value)}`)
    .reverse()
    .join(', ');
}

/** The OCSP responder URL of a certificate's Authority Information Access, if any. */
export function ocspUrl(certificate: pkijs.Certificate): string | null {
  const extension = certificate.extensions?.find((e) => e.extnID === OID_AIA);
  const access = extension?.parsedValue as pkijs.InfoAccess | undefined;
  const location = access?.accessDescriptions?.find((d) => d.accessMethod === OID_AIA_OCSP)?.accessLocation;
  return location?.type === URI && typeof location.value === 'string' ? location.value : null;
}

/** The URLs of a certificate's CRL distribution points. */
export function crlUrls(certificate: pkijs.Certificate): string[] {
  const extension = certificate.extensions?.find((e) => e.extnID === OID_CRL_DP);
  const points = extension?.parsedValue as pkijs.CRLDistributionPoints | undefined;
  const urls: string[] = [];
  for (const point of points?.distributionPoints ?? []) {
    const names = point.distributionPoint;
    if (!Array.isArray(names)) continue;
    for (const name of names) if (name.type === URI && typeof name.value === 'string') urls.push(name.value);
  }
  return urls;
}

/**
 * An OCSP request for `certificate` (SHA-1 CertID, as responders universally accept), DER.
 * @example await fetch(url, { method: 'POST', body: await ocspRequest(certificate, issuer) })
 */
export async function ocspRequest(certificate: pkijs.Certificate, issuer: pkijs.Certificate): Promise<Uint8Array<ArrayBuffer>> {
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(certificate, { hashAlgorithm: 'SHA-1', issuerCertificate: issuer });
  return new Uint8Array(request.toSchema(true).toBER());
}

/**
 * What an OCSP response (DER `OCSPResponse`) says of `certificate`; null when it is not a successful basic
 * response about it, or its signature does not verify against `issuer` or a responder `issuer` delegated to.
 * @example const finding = await ocspFinding(responseDer, certificate, issuer)
 */
export async function ocspFinding(
  der: Uint8Array,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
): Promise<RevocationFinding | null> {
  const basic = basicResponse(der);
  if (basic === null || !(await ocspSignatureVerifies(basic, issuer))) return null;
  const { isForCertificate, status } = await basic.getCertificateStatus(certificate, issuer);
  if (!isForCertificate) return null;
  const producedAt = basic.tbsResponseData.producedAt.toISOString();
  if (status === 0) return { status: 'good', source: 'ocsp', producedAt };
  if (status === 2) return { status: 'unknown', source: 'ocsp', producedAt };
  const single = basic.tbsResponseData.responses.find((r) => r.certID.serialNumber.isEqual(certificate.serialNumber));
  const revokedInfo = (single?.certStatus as asn1js.Constructed | undefined)?.valueBlock.value[0];
  const revokedAt = revokedInfo instanceof asn1js.GeneralizedTime ? revokedInfo.toDate().toISOString() : undefined;
  return { status: 'revoked', source: 'ocsp', producedAt, ...(revokedAt ? { revokedAt } : {}) };
}

/**
 * What a CRL (DER) says of `certificate`; null when `issuer` did not sign it.
 * @example const finding = await crlFinding(crlDer, certificate, issuer)
 */
export async function crlFinding(
  der: Uint8Array,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
): Promise<RevocationFinding | null> {
  let crl: pkijs.CertificateRevocationList;
  try {
    crl = pkijs.CertificateRevocationList.fromBER(new Uint8Array(der));
  } catch {
    return null;
  }
  if (!crl.issuer.isEqual(certificate.issuer)) return null;
  if (!(await crl.verify({ issuerCertificate: issuer }).catch(() => false))) return null;
  const producedAt = crl.thisUpdate.value.toISOString();
  const entry = crl.revokedCertificates?.find((r) => r.userCertificate.isEqual(certificate.serialNumber));
  if (entry === undefined) return { status: 'good', source: 'crl', producedAt };
  return { status: 'revoked', source: 'crl', producedAt, revokedAt: entry.revocationDate.value.toISOString() };
}

/** The certificates an OCSP response carries (a delegated responder's), DER. */
export function ocspCertificates(der: Uint8Array): Uint8Array[] {
  const basic = basicResponse(der);
  return (basic?.certs ?? []).map((c) => new Uint8Array(c.toSchema().toBER()));
}

function basicResponse(der: Uint8Array): pkijs.BasicOCSPResponse | null {
  try {
    const response = pkijs.OCSPResponse.fromBER(new Uint8Array(der));
    if (response.responseStatus.valueBlock.valueDec !== 0 || response.responseBytes === undefined) return null;
    if (response.responseBytes.responseType !== OID_OCSP_BASIC) return null;
    return pkijs.BasicOCSPResponse.fromBER(new Uint8Array(response.responseBytes.response.valueBlock.valueHexView));
  } catch {
    return null;
  }
}

async function ocspSignatureVerifies(basic: pkijs.BasicOCSPResponse, issuer: pkijs.Certificate): Promise<boolean> {
  const responderId = basic.tbsResponseData.responderID;
  const isResponder = (c: pkijs.Certificate) =>
    responderId instanceof pkijs.RelativeDistinguishedNames
      ? c.subject.isEqual(responderId)
      : createHash('sha1').update(c.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest()
          .equals((responderId as asn1js.OctetString).valueBlock.valueHexView);
  const responder = [issuer, ...(basic.certs ?? [])].find(isResponder);
  if (responder === undefined) return false;
  if (responder !== issuer) {
    // A delegated responder: issued by the same CA, for OCSP signing (RFC 6960 4.2.2.2).
    const eku = responder.extensions?.find((e) => e.extnID === OID_EKU)?.parsedValue as pkijs.ExtKeyUsage | undefined;
    if (!eku?.keyPurposes.includes(OID_OCSP_SIGNING) || !responder.issuer.isEqual(issuer.subject)) return false;
    if (!(await responder.verify(issuer).catch(() => false))) return false;
  }
  const engine = pkijs.getCrypto(true);
  return engine
    .verifyWithPublicKey(
      new Uint8Array(basic.tbsResponseData.tbsView),
      basic.signature,
      responder.subjectPublicKeyInfo,
      basic.signatureAlgorithm,
    )
    .catch(() => false);
}
