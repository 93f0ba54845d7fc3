import { EMAIL_CODE_TTL_SECONDS } from '@signet/contract';
import { signerTexts } from '../i18n/signer-texts.js';
import { escapeHtml, messageHtml, oneLine } from '../mail/signing-invitation.js';
import type { DocumentRecord } from '../storage/types.js';
import type { StoredSigner } from './codes.js';

/**
 * The e-mail that carries a signer's code, in the signer's language (`i18n/`), plain text and HTML: the code first in
 * the subject and the text, so a phone shows it in the notification and offers it for `autocomplete="one-time-code"`.
 * @example codeMessage('042917', document, signer).subject // '042917 is your code to open "lease.pdf"'
 */
export function codeMessage(
  code: string,
  document: Pick<DocumentRecord, 'filename'>,
  signer: Pick<StoredSigner, 'name' | 'locale'>,
): { subject: string; text: string; html: string } {
  const texts = signerTexts(signer.locale);
  const hello = texts.hello(signer.name);
  const intro = texts.code.intro(document.filename);
  const after = `${texts.code.validFor(EMAIL_CODE_TTL_SECONDS / 60)} ${texts.code.ignore}`;
  const e = escapeHtml;
  return {
    subject: texts.code.subject(code, oneLine(document.filename, 150)),
    text: [hello, '', intro, '', `    ${code}`, '', after].join('\n'),
    html: messageHtml(signer.locale, [
      `<p>${e(hello)}</p>`,
      `<p>${e(intro)}</p>`,
      `<p dir="ltr" style="font-size: 28px; font-weight: 600; letter-spacing: 0.2em; font-family: ui-monospace, monospace">${e(code)}</p>`,
      `<p style="color: #4b5563; font-size: 14px">${e(after)}</p>`,
    ]),
  };
}
