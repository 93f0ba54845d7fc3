import { EMAIL_CODE_TTL_SECONDS } from '@signet/contract';
import type { DocumentRecord } from '../storage/types.js';
import type { StoredSigner } from './codes.js';

/**
 * The e-mail that carries a signer's code: the code first in the subject and the text, so a phone shows it in the
 * notification and offers it for `autocomplete="one-time-code"`.
 * @example codeMessage('042917', document, signer).subject // '042917 is your code to open "lease.pdf"'
 */
export function codeMessage(code: string, document: Pick<DocumentRecord, 'filename'>, signer: Pick<StoredSigner, 'name'>): { subject: string; text: string } {
  const minutes = EMAIL_CODE_TTL_SECONDS / 60;
  return {
    subject: `${code} is your code to open "${document.filename}"`,
    text: [
      `Hello ${signer.name},`,
      '',
      `Your code to open "${document.filename}" for signing is:`,
      '',
      `    ${code}`,
      '',
      `It works for ${minutes} minutes. If you did not ask for it, you can ignore this message: nobody can open the document without it.`,
    ].join('\n'),
  };
}
