import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DocumentRecord } from '../storage/types.js';

/*
 * Signing links (docs/email.md, "The hosted signing page"): `/sign/{token}` opens one signer's part of one document.
 * The token is HMAC-signed with `SIGNET_SECRET` rather than stored: it names the document, the signer and an expiry,
 * and everything else is read when it is used — a voided, expired or erased document, or a signer no longer on it,
 * makes every link to it dead (docs/decisions.md, "Signing links").
 */

/** How long a link lives on a document without `expiresAt`: 30 days from the message that carries it. */
export const SIGNING_LINK_DAYS = 30;

/** What a signing link grants: this signer of this document, until `expires` (Unix seconds). */
export interface SigningLinkGrant {
  documentId: string;
  signerId: string;
  expires: number;
}

/** A link's check: its grant when the MAC is right (`expired` too, so the page can say which document), else `invalid`. */
export type SigningLinkCheck = ({ status: 'valid' | 'expired' } & SigningLinkGrant) | { status: 'invalid' };

// Its own purpose in the MAC, so that no other token signed with the secret can pass for a signing link.
const PURPOSE = 'signet signing link v1';
const TOKEN = /^([A-Za-z0-9_-]{8,200})\.(0|[1-9]\d{0,11})\.([A-Za-z0-9_-]{43})$/;

function mac(secret: string, subject: string, expires: number): string {
  return createHmac('sha256', secret).update(`${PURPOSE}\n${subject}\n${expires}`).digest('base64url');
}

/**
 * The token of a signing link: `<base64url(documentId "\n" signerId)>.<expiry>.<mac>`, URL-safe as it stands.
 * @example signSigningLink(secret, { documentId: 'doc_…', signerId: 'tenant', expires: 1764000000 })
 */
export function signSigningLink(secret: string, { documentId, signerId, expires }: SigningLinkGrant): string {
  const subject = Buffer.from(`${documentId}\n${signerId}`, 'utf8').toString('base64url');
  return `${subject}.${expires}.${mac(secret, subject, expires)}`;
}

/**
 * Whether `token` is a signing link this server signed, and until when; only the form `signSigningLink` writes is
 * accepted (the canonical texts are compared in constant time).
 */
export function checkSigningLink(secret: string, token: string, now: Date): SigningLinkCheck {
  const match = TOKEN.exec(token);
  if (!match) return { status: 'invalid' };
  const [, subject, expiresText, given] = match as unknown as [string, string, string, string];
  const expires = Number(expiresText);
  const expected = mac(secret, subject, expires);
  if (!timingSafeEqual(Buffer.from(given, 'latin1'), Buffer.from(expected, 'latin1'))) return { status: 'invalid' };
  const [documentId, signerId, ...rest] = Buffer.from(subject, 'base64url').toString('utf8').split('\n');
  if (!documentId || signerId === undefined || rest.length > 0) return { status: 'invalid' };
  const status = expires * 1000 <= now.getTime() ? 'expired' : 'valid';
  return { status, documentId, signerId, expires };
}

/** When a link sent at `now` expires: the document's `expiresAt`, else `SIGNING_LINK_DAYS` later. */
export function signingLinkExpiry(document: Pick<DocumentRecord, 'expiresAt'>, now: Date): Date {
  if (document.expiresAt) return new Date(document.expiresAt);
  return new Date(now.getTime() + SIGNING_LINK_DAYS * 86_400_000);
}

/**
 * The URL of a signer's link, sent at `now`, under `base` (an origin). A completed document's link (`completed`)
 * lasts `SIGNING_LINK_DAYS` whatever its `expiresAt`, which was a deadline to sign, not to keep the copy.
 * @example signingLinkUrl(secret, 'https://sign.example.com', document, 'tenant', new Date())
 */
export function signingLinkUrl(
  secret: string,
  base: string,
  document: Pick<DocumentRecord, 'id' | 'expiresAt'>,
  signerId: string,
  now: Date,
  options: { completed?: boolean } = {},
) {
  const expiresAt = signingLinkExpiry(options.completed ? {} : document, now);
  const token = signSigningLink(secret, { documentId: document.id, signerId, expires: Math.floor(expiresAt.getTime() / 1000) });
  return { url: `${base.replace(/\/+$/, '')}/sign/${token}`, expiresAt };
}
