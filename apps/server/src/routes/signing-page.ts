import type { SignerLocale } from '@signet/contract';
import type { Context } from 'hono';
import type { AppContext } from '../app-context.js';
import { createApiKeyRecord } from '../documents/seed.js';
import { checkSigningLink } from '../documents/signing-link.js';
import { clientIp } from '../middleware/api-key/client-ip.js';
import type { AppEnv } from '../http/env.js';
import { signerTexts, type NoticeName } from '../i18n/signer-texts.js';
import { findDocument } from '../storage/queries/documents.js';
import { findOrganizationProfile } from '../storage/queries/organizations.js';
import type { DocumentRecord, StoredSigner } from '../storage/types.js';
import type { SignetApp } from './openapi.js';
import { requestOrigin } from './sdk-documents.js';
import { pageLocale, SIGNING_PAGE_CSP, signingNoticeHtml, signingPageHtml } from './signing-page-html.js';

/** How long the session key a page load mints lives: long enough to read and sign, short enough to expire unused. */
const PAGE_SESSION_SECONDS = 2 * 3600;

/** Why a link does not open, with its status; its words are the signer's language's (`i18n/`, docs/email.md). */
const NOTICES = {
  invalid: 404,
  expired: 410,
  voided: 410,
  documentExpired: 410,
  declined: 410,
  erased: 410,
  busy: 429,
} as const satisfies Record<NoticeName, number>;

/**
 * Visits a minute: per client address, whatever the link (guessing links costs a MAC check, but each valid visit
 * stores a session key); and per link, whatever the address (a link that leaked cannot mint keys in bulk).
 */
export const PAGE_VISITS_PER_MINUTE = { ip: 60, link: 20 } as const;

/** The notice a link to `signer` (undefined: not one of its signers) of `document` gets instead of the viewer, or none. */
function noticeFor(document: DocumentRecord | null, signer: StoredSigner | undefined): NoticeName | undefined {
  if (!document || document.status === 'draft' || document.implicitSigner) return 'invalid';
  if (document.erased) return 'erased';
  if (!signer) return 'invalid';
  if (document.status === 'voided') return 'voided';
  if (document.status === 'expired') return 'documentExpired';
  if (document.status === 'declined') return 'declined';
  return undefined;
}

/** Headers of every answer of the page: never cached or framed, the link never sent on as a referrer. */
function pageHeaders(c: Context<AppEnv>): void {
  c.header('Content-Security-Policy', SIGNING_PAGE_CSP);
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('X-Frame-Options', 'DENY');
}

/**
 * `GET /sign/{token}`: the hosted signing page of a signing link (docs/email.md). A valid link of a signer of a
 * document that can be signed (or was completed: the viewer then offers the signed copy) mints a session key for that
 * signer bound to this server's origin (`PUBLIC_BASE_URL`, else the request's) and serves the viewer with it. A link
 * that is not valid answers 404; one that expired, or whose document was voided, declined, expired or erased, 410 — an
 * HTML page saying so either way. The page is in the organization's brand colour when it has one (docs/email.md,
 * "Branding"). Not part of the API contract, like `/embed.js`.
 * @example registerSigningPage(app, deps); // GET https://sign.example.com/sign/ZG9j….1764000000.Xy…
 */
export function registerSigningPage(app: SignetApp, deps: AppContext): void {
  const now = () => (deps.now ? deps.now() : new Date());
  app.get('/sign/:token', async (c) => {
    pageHeaders(c);
    const browserLocale = pageLocale(c.req.header('Accept-Language'));
    /** The page saying why the link does not open, in the signer's language when known, else the browser's. */
    const notice = (which: NoticeName, locale: SignerLocale = browserLocale) =>
      c.html(signingNoticeHtml({ ...signerTexts(locale).page.notices[which], locale }), NOTICES[which]);
    /** The busy page when `counter` is past `limit` this minute, with `Retry-After`. */
    const overLimit = async (counter: string, limit: number) => {
      const decision = await deps.rateLimits.consume(counter, limit);
      if (decision.allowed) return undefined;
      c.header('Retry-After', String(decision.retryAfter));
      return notice('busy');
    };
    const ip = clientIp(c, deps.config.trustProxy);
    const busyAddress = ip ? await overLimit(`sign-page-ip:${ip}`, PAGE_VISITS_PER_MINUTE.ip) : undefined;
    if (busyAddress) return busyAddress;
    const at = now();
    const link = checkSigningLink(deps.secret, c.req.param('token'), at);
    if (link.status === 'invalid') return notice('invalid');
    const busyLink = await overLimit(`sign-page-link:${link.documentId}:${link.signerId}`, PAGE_VISITS_PER_MINUTE.link);
    if (busyLink) return busyLink;
    // Read afresh, not from the read cache: a void or an erasure ends its links at once.
    const document = await findDocument(deps.storage.db.query, link.documentId);
    const linked = document?.signers.find((candidate) => candidate.id === link.signerId);
    const refused = noticeFor(document, linked);
    if (refused) return notice(refused, linked?.locale);
    // noticeFor refuses a link whose document or signer is missing.
    const found = document!;
    const signer = linked!;
    const locale = signer.locale ?? browserLocale;
    if (link.status === 'expired') return notice('expired', locale);
    const origin = new URL(deps.config.publicBaseUrl ?? requestOrigin(c.req.url)).origin;
    const session = await createApiKeyRecord(deps.storage, {
      organizationId: found.organizationId,
      kind: 'pk',
      createdAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + PAGE_SESSION_SECONDS * 1000).toISOString(),
      origins: [origin],
      documentId: found.id,
      signerId: signer.id,
    });
    const organization = await findOrganizationProfile(deps.storage.db.query, found.organizationId);
    const page = signingPageHtml({
      organizationName: organization?.name ?? 'Signet',
      brandColor: organization?.brandColor ?? null,
      documentName: found.filename,
      signerName: signer.name,
      documentId: found.id,
      apiKey: session.key,
      baseUrl: origin,
      locale,
    });
    // As strict as every answer's, for the page's own style sheet (in the organization's colour).
    c.header('Content-Security-Policy', page.csp);
    return c.html(page.html, 200);
  });
}
