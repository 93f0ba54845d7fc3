import type { SignerLocale } from '@signet/contract';
import { readableTime, signerTexts, textDirection } from '../i18n/signer-texts.js';
import type { MailMessage } from './message.js';

/*
 * The e-mails that ask a signer to sign (docs/email.md): an invitation when their turn comes, reminders after it, and a
 * notice that the document expires soon — in the signer's language (`i18n/`).
 * Plain text and simple HTML; everything the sender or the signer chose (names, file name) is escaped in the HTML and
 * kept on one line in the subject.
 */

/** What an invitation or a reminder says. */
export interface SigningInvitation {
  kind: 'invitation' | 'reminder' | 'expiring';
  to: string;
  signerName: string;
  organizationName: string;
  /** The document's file name, as the signer will see it. */
  documentName: string;
  url: string;
  expiresAt: Date;
  /** The signer's language; English without one. */
  locale?: SignerLocale | undefined;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` safe inside HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/** One line of at most `max` characters: no line breaks or control characters (a header cannot be split). */
export function oneLine(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The message of an invitation, a reminder or an expiry notice.
 * @example signingInvitationMessage({ kind: 'invitation', to, signerName: 'Ada', organizationName: 'Acme', documentName: 'lease.pdf', url, expiresAt })
 */
export function signingInvitationMessage(invitation: SigningInvitation): MailMessage {
  const organization = oneLine(invitation.organizationName, 100);
  const documentName = oneLine(invitation.documentName, 150);
  const signerName = oneLine(invitation.signerName, 200);
  const until = readableTime(invitation.expiresAt, invitation.locale);
  const texts = signerTexts(invitation.locale);
  const subject = invitation.kind === 'expiring' ? texts.expiring.subject(documentName, until) : texts[invitation.kind].subject(organization, documentName);
  const ask = invitation.kind === 'expiring' ? texts.expiring.ask(organization, documentName, until) : texts[invitation.kind].ask(organization, documentName);
  const { text, html } = signerMessageBodies({ signerName, organization, paragraph: ask, ...texts.sign, url: invitation.url, until, locale: invitation.locale });
  return { to: invitation.to, subject, text, html };
}

/** What a message to a signer says, its names already made one line (`oneLine`). */
export interface SignerMessageParts {
  signerName: string;
  organization: string;
  /** What happened, or what is asked. */
  paragraph: string;
  /** The words before the link in the plain text ("Open it here to read and sign it"). */
  linkIntro: string;
  /** The HTML button's label. */
  button: string;
  url: string;
  /** Until when the link works, as `readableTime` gives it. */
  until: string;
  /** A sentence after the link's time. */
  note: string;
  locale?: SignerLocale | undefined;
}

/**
 * The HTML document of a message to a signer in `locale` (its language and direction), around `paragraphs` of HTML
 * already escaped.
 */
export function messageHtml(locale: SignerLocale | undefined, paragraphs: readonly string[]): string {
  return [
    `<!doctype html><html lang="${locale ?? 'en'}" dir="${textDirection(locale)}"><body style="font-family: system-ui, sans-serif; color: #111827; line-height: 1.5">`,
    ...paragraphs,
    '</body></html>',
  ].join('\n');
}

/**
 * The plain-text and HTML bodies of a message to a signer: the greeting, `paragraph`, the link (a button in the HTML),
 * until when it works, and on whose behalf it was sent; everything escaped in the HTML.
 * @example signerMessageBodies({ signerName: 'Ada', organization: 'Acme', paragraph, linkIntro, button, url, until, note })
 */
export function signerMessageBodies(parts: SignerMessageParts): { text: string; html: string } {
  const texts = signerTexts(parts.locale);
  const text = [
    texts.hello(parts.signerName),
    '',
    parts.paragraph,
    '',
    `${parts.linkIntro}: ${parts.url}`,
    '',
    `${texts.linkUntil(parts.until)} ${parts.note}`,
    '',
    texts.sentBy(parts.organization),
  ].join('\n');
  const e = escapeHtml;
  const html = messageHtml(parts.locale, [
    `<p>${e(texts.hello(parts.signerName))}</p>`,
    `<p>${e(parts.paragraph)}</p>`,
    `<p><a href="${e(parts.url)}" style="display: inline-block; padding: 10px 18px; background: #2f5bea; color: #ffffff; border-radius: 6px; text-decoration: none">${e(parts.button)}</a></p>`,
    `<p style="color: #4b5563; font-size: 14px">${e(texts.copyLink)} <span dir="ltr">${e(parts.url)}</span><br>${e(texts.linkUntil(parts.until))} ${e(parts.note)}</p>`,
    `<p style="color: #6b7280; font-size: 12px">${e(texts.sentBy(parts.organization))}</p>`,
  ]);
  return { text, html };
}
