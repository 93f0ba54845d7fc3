import type { SignerLocale } from '@signet/contract';
import { ar } from './locales/ar.js';
import { de } from './locales/de.js';
import { en } from './locales/en.js';
import { es } from './locales/es.js';
import { fr } from './locales/fr.js';
import { it } from './locales/it.js';
import { ja } from './locales/ja.js';
import { nl } from './locales/nl.js';
import { pl } from './locales/pl.js';
import { pt } from './locales/pt.js';

/*
 * What Signet says to a signer outside the viewer — its e-mails and the hosted signing page — in the viewer's ten
 * languages (docs/email.md, "Languages"). One file of `locales/` per language; English when a signer has none.
 * In the functions, `org` is the organization's name, `doc` the document's file name and `until` a time as
 * `readableTime` writes it, each already made one line by the caller.
 */

/** The words of a message that asks the signer to act. */
export interface AskTexts {
  subject(org: string, doc: string): string;
  /** The message's first paragraph: who asks what. */
  ask(org: string, doc: string): string;
}

/** Why a link of the hosted page does not open: a title and what to do. */
export interface NoticeTexts {
  title: string;
  message: string;
}

/** The notices of the hosted page, by why the link does not open (`routes/signing-page.ts`). */
export type NoticeName = 'invalid' | 'expired' | 'voided' | 'documentExpired' | 'declined' | 'erased' | 'busy';

export interface SignerTexts {
  /** The greeting line. */
  hello(name: string): string;
  invitation: AskTexts;
  reminder: AskTexts;
  expiring: { subject(doc: string, until: string): string; ask(org: string, doc: string, until: string): string };
  /** The link of an invitation, a reminder or an expiry notice: the words before it, its button, a warning after. */
  sign: { linkIntro: string; button: string; note: string };
  /** The message that everyone signed, with the link to the signed copy. */
  completed: { subject(doc: string): string; done(org: string, doc: string): string; linkIntro: string; button: string; note: string };
  /** Until when a message's link works. */
  linkUntil(until: string): string;
  /** Before the link written out in an HTML message, under its button. */
  copyLink: string;
  /** The last line of every message. */
  sentBy(org: string): string;
  /** The e-mail of a signer's code (docs/signer-auth.md); the code leads its subject. */
  code: { subject(code: string, doc: string): string; intro(doc: string): string; validFor(minutes: number): string; ignore: string };
  /** The hosted signing page's title and header, and its notices. */
  page: { title(org: string, doc: string): string; from(org: string): string; signingAs(name: string): string; notices: Record<NoticeName, NoticeTexts> };
}

const TEXTS: Record<SignerLocale, SignerTexts> = { en, de, fr, es, it, pt, nl, pl, ja, ar };

/**
 * The texts of `locale`, English without one.
 * @example signerTexts('de').invitation.subject('Acme', 'lease.pdf') // 'Acme bittet Sie, lease.pdf zu unterschreiben'
 */
export function signerTexts(locale: SignerLocale | undefined): SignerTexts {
  return TEXTS[locale ?? 'en'];
}

/** The writing direction of `locale`: right to left for Arabic. */
export function textDirection(locale: SignerLocale | undefined): 'rtl' | 'ltr' {
  return locale === 'ar' ? 'rtl' : 'ltr';
}

/**
 * A time as people of `locale` read it, in UTC: `1 March 2027 at 12:00 UTC`, `1. März 2027 um 12:00 UTC`.
 * @example readableTime(new Date('2027-03-01T12:00:00Z'), 'fr') // '1 mars 2027 à 12:00 UTC'
 */
export function readableTime(at: Date, locale: SignerLocale | undefined = 'en'): string {
  const tag = locale === 'en' ? 'en-GB' : locale;
  return `${new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}
