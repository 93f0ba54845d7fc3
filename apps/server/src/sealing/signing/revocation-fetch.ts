import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RevocationProvider } from '@libpdf/core';
import type * as pkijs from 'pkijs';
import {
  crlFinding,
  crlUrls,
  isSelfIssued,
  ocspFinding,
  ocspRequest,
  ocspUrl,
  parseCertificate,
  subjectName,
  type RevocationFinding,
} from './revocation.js';

export interface RevocationFetchOptions {
  /** Each request's time limit (`SIGNET_REVOCATION_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Tries of each URL within one seal attempt (default 2); the seal job's own retries come on top. */
  tries?: number;
  /** The largest OCSP response read (default 256 KiB). */
  maxOcspBytes?: number;
  /** The largest CRL read (default 16 MiB). */
  maxCrlBytes?: number;
}

/** Past this a revocation responder counts as unreachable for this attempt (`SIGNET_REVOCATION_TIMEOUT_MS`). */
export const DEFAULT_REVOCATION_TIMEOUT_MS = 5_000;
const RETRY_PAUSE_MS = 250;

interface Entry {
  certificate: pkijs.Certificate;
  ocsp?: Uint8Array;
  crl?: Uint8Array;
  finding?: RevocationFinding;
  failures: string[];
}

/**
 * A certificate of the seal's chains whose status is not known to be good, and why. `passing`: a responder that
 * failed now may answer later (the seal is retried); otherwise no retry can help (a certificate that names no
 * responder, a revoked one).
 */
export interface Unresolved {
  reason: string;
  passing: boolean;
}

/** A certificate whose revocation status is known to be `revoked`. */
export class RevokedCertificateError extends Error {
  constructor(
    readonly subject: string,
    readonly revokedAt: string | undefined,
  ) {
    super(`The certificate ${subject} is revoked${revokedAt ? ` since ${revokedAt}` : ''}`);
    this.name = 'RevokedCertificateError';
  }
}

/**
 * libpdf's `RevocationProvider`, ours: OCSP first, then the CRL distribution points, over http or https only,
 * each request within `timeoutMs` and a size bound, tried twice; an answer counts only once its signature
 * verifies (`revocation.ts`). It remembers what it fetched, so libpdf asking again for the same certificate
 * (the signature's chain, then the document timestamp's) costs nothing, and what it could not fetch, so the
 * signer knows which level it reached. The URLs come from the operator's own certificates and timestamp
 * authority, not from users: any host is fetched, a private one included (docs/decisions.md).
 * @example
 * const revocation = new RevocationFetcher({ timeoutMs: 5000 });
 * await revocation.checkChain(chain); // throws RevokedCertificateError
 * await pdf.addValidationData({ revocationProvider: revocation });
 */
export class RevocationFetcher implements RevocationProvider {
  private readonly entries = new Map<string, Entry>();
  private readonly certificates = new Map<string, pkijs.Certificate>();

  constructor(private readonly options: RevocationFetchOptions) {}

  /**
   * Fetches the status of each certificate of `chain` (leaf first, each issued by the next) but a self-issued
   * root; throws `RevokedCertificateError` for a revoked one. Those it could not learn are in `unresolved()`.
   */
  async checkChain(chain: Uint8Array[]): Promise<void> {
    for (const der of chain) this.know(der);
    for (let i = 0; i < chain.length; i++) {
      const entry = this.entry(chain[i]!);
      if (isSelfIssued(entry.certificate)) continue;
      const issuer = chain[i + 1] ?? this.issuerOf(entry.certificate);
      if (issuer === undefined) {
        entry.failures.push('its issuer is not in the chain');
        continue;
      }
      if ((await this.getOCSP(chain[i]!, issuer)) === null) await this.getCRL(chain[i]!);
      if (entry.finding?.status === 'revoked') {
        throw new RevokedCertificateError(subjectName(entry.certificate), entry.finding.revokedAt);
      }
    }
  }

  async getOCSP(cert: Uint8Array, issuer: Uint8Array): Promise<Uint8Array | null> {
    const entry = this.entry(cert);
    this.know(issuer);
    if (entry.ocsp) return entry.ocsp;
    if (entry.finding) return null;
    const url = ocspUrl(entry.certificate);
    if (url === null) return null;
    const issuerCertificate = parseCertificate(issuer);
    try {
      const body = await ocspRequest(entry.certificate, issuerCertificate);
      const headers = { 'content-type': 'application/ocsp-request', accept: 'application/ocsp-response' };
      const der = await this.fetch(url, { method: 'POST', headers, body }, this.options.maxOcspBytes ?? 256 * 1024);
      const finding = await ocspFinding(der, entry.certificate, issuerCertificate);
      if (finding === null) throw new Error('the answer is not a signed OCSP response about this certificate');
      if (finding.status === 'unknown') throw new Error('the responder does not know this certificate');
      entry.finding = finding;
      entry.ocsp = der;
      return der;
    } catch (error) {
      entry.failures.push(`OCSP ${url}: ${message(error)}`);
      return null;
    }
  }

  async getCRL(cert: Uint8Array): Promise<Uint8Array | null> {
    const entry = this.entry(cert);
    if (entry.crl) return entry.crl;
    if (entry.finding || isSelfIssued(entry.certificate)) return null;
    const issuer = this.issuerOf(entry.certificate);
    for (const url of crlUrls(entry.certificate)) {
      try {
        if (issuer === undefined) throw new Error('its issuer is not known');
        const der = await this.fetch(url, { headers: { accept: 'application/pkix-crl' } }, this.options.maxCrlBytes ?? 16 * 1024 * 1024);
        const finding = await crlFinding(der, entry.certificate, parseCertificate(issuer));
        if (finding === null) throw new Error("the answer is not a CRL signed by the certificate's issuer");
        entry.finding = finding;
        entry.crl = der;
        return der;
      } catch (error) {
        entry.failures.push(`CRL ${url}: ${message(error)}`);
      }
    }
    return null;
  }

  /** What was learnt of a certificate (DER), if anything. */
  findingFor(cert: Uint8Array): RevocationFinding | undefined {
    return this.entries.get(key(cert))?.finding;
  }

  /**
   * The certificates asked about (but self-issued roots) whose status is not known to be good, each with why:
   * empty when the validation data is complete. `among`: only these certificates
   * (the seal's own chains, not those of signatures the original PDF already carried).
   */
  unresolved(among?: Uint8Array[]): Unresolved[] {
    const entries = among ? [...new Map(among.map((der) => [key(der), der])).values()].map((der) => this.entry(der)) : [...this.entries.values()];
    const missing: Unresolved[] = [];
    for (const entry of entries) {
      if (isSelfIssued(entry.certificate) || entry.finding?.status === 'good') continue;
      const subject = subjectName(entry.certificate);
      if (entry.finding?.status === 'revoked') {
        missing.push({ reason: `${subject} is revoked since ${entry.finding.revokedAt ?? 'an unknown time'}`, passing: false });
      } else if (entry.failures.length > 0) {
        missing.push({ reason: `no revocation data for ${subject} (${entry.failures.join('; ')})`, passing: true });
      } else if (ocspUrl(entry.certificate) === null && crlUrls(entry.certificate).length === 0) {
        missing.push({ reason: `${subject} names no OCSP responder and no CRL distribution point`, passing: false });
      } else {
        missing.push({ reason: `no revocation data for ${subject} (it was not asked for)`, passing: false });
      }
    }
    return missing;
  }

  private entry(der: Uint8Array): Entry {
    const id = key(der);
    let entry = this.entries.get(id);
    if (entry === undefined) {
      entry = { certificate: parseCertificate(der), failures: [] };
      this.entries.set(id, entry);
      this.know(der);
    }
    return entry;
  }

  private know(der: Uint8Array): void {
    const certificate = parseCertificate(der);
    this.certificates.set(Buffer.from(certificate.subject.toSchema().toBER()).toString('hex'), certificate);
  }

  private issuerOf(certificate: pkijs.Certificate): Uint8Array | undefined {
    const issuer = this.certificates.get(Buffer.from(certificate.issuer.toSchema().toBER()).toString('hex'));
    return issuer ? new Uint8Array(issuer.toSchema().toBER()) : undefined;
  }

  private async fetch(url: string, init: RequestInit, maxBytes: number): Promise<Uint8Array> {
    const protocol = new URL(url).protocol;
    if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`only http and https are fetched, not ${protocol}`);
    const tries = Math.max(1, this.options.tries ?? 2);
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetchBounded(url, init, this.options.timeoutMs, maxBytes);
      } catch (error) {
        if (attempt >= tries || error instanceof TooLarge) throw error;
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }
}

class TooLarge extends Error {}

async function fetchBounded(url: string, init: RequestInit, timeoutMs: number, maxBytes: number): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') throw new Error(`no answer within ${timeoutMs} ms`);
    throw new Error(`unreachable (${message((error as Error).cause ?? error)})`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw new TooLarge(`larger than ${maxBytes} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  try {
    for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
      size += read.value.byteLength;
      if (size > maxBytes) throw new TooLarge(`larger than ${maxBytes} bytes`);
      chunks.push(read.value);
    }
  } catch (error) {
    await reader?.cancel().catch(() => {});
    if (error instanceof TooLarge) throw error;
    if (error instanceof Error && error.name === 'TimeoutError') throw new Error(`no answer within ${timeoutMs} ms`);
    throw error;
  }
  return new Uint8Array(Buffer.concat(chunks));
}

function key(der: Uint8Array): string {
  return createHash('sha256').update(der).digest('hex');
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
