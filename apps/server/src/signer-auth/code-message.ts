import { EMAIL_CODE_TTL_SECONDS } from '@signet/contract';
import { signerTexts } from '../i18n/signer-texts.js';
import type { DocumentRecord } from '../storage/types.js';
import type { StoredSigner } from './codes.js';

/**
 * The e-mail that carries a signer's code, in the signer's language (`i18n/`): the code first in the subject and the
 * text, so a phone shows it in the notification and offers it for `autocomplete="one-time-code"`.
 * @example codeMessage('042917', document, signer).subject // '042917 is your code to open "lease.pdf"'
 */
export function codeMessage(
  code: string,
  document: Pick<DocumentRecord, 'filename'>,
  signer: Pick<StoredSigner, 'name' | 'locale'>,
): { subject: string; text: string } {
  const texts = signerTexts(signer.locale);
  return {
    subject: texts.code.subject(code, document.filename),
    text: [
      texts.hello(signer.name),
      '',
      texts.code.intro(document.filename),
      '',
      `    ${code}`,
      '',
      `${texts.code.validFor(EMAIL_CODE_TTL_SECONDS / 60)} ${texts.code.ignore}`,
    ].join('\n'),
  };
}
