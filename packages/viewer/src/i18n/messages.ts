import type { SignatureDialogLabels } from '../signature/SignatureDialog.js';

/**
 * A text whose words depend on a number: one template per plural category of `Intl.PluralRules` for the language
 * (English `one` and `other`; Polish `one`, `few`, `many`, `other`; Arabic all six). `other` is always there.
 * @example const progress: PluralMessage = { one: '{done} of {total} required field complete', other: '{done} of {total} required fields complete' };
 */
export type PluralMessage = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** A template with `{name}` placeholders, or one per plural category (a host's override is always a plain string). */
export type Message = string | PluralMessage;

/**
 * Every text the viewer shows. A host overrides any of them through the `messages` prop. Numbers in them are
 * formatted for the viewer's locale; the plural ones choose their form by the value {@link PLURAL_BY} names.
 */
export interface ViewerMessages {
  loadingDocument: string;
  loadingPdf: string;
  /** Plural by `{total}`. */
  progress: Message;
  next: string;
  submit: string;
  submitting: string;
  allComplete: string;
  required: string;
  invalidField: string;
  signHere: string;
  initialHere: string;
  changeSignature: string;
  completedTitle: string;
  completedBody: string;
  alreadyCompletedTitle: string;
  alreadyCompletedBody: string;
  submissionReference: string;
  /** Under the completed state while the server seals the document. */
  signedCopyPreparing: string;
  /** The link to the signed PDF. */
  signedCopyDownload: string;
  /** When the signed PDF has not come within the viewer's wait (ten minutes by default). */
  signedCopyUnavailable: string;
  fixFields: string;
  submitFailed: string;
  retry: string;
  errorTitle: string;
  errorInvalidKey: string;
  errorExpiredKey: string;
  errorPermissions: string;
  errorNotFound: string;
  errorNetwork: string;
  errorRateLimited: string;
  errorGeneric: string;
  errorPdf: string;
  /** A document the sender voided (its links stop): said instead of an error, with no Try again. */
  voidedTitle: string;
  voidedBody: string;
  /** A document past its `expiresAt`. */
  expiredTitle: string;
  expiredBody: string;
  /** A document the sender erased. */
  erasedTitle: string;
  erasedBody: string;
  zoomIn: string;
  zoomOut: string;
  fitWidth: string;
  /** The zoom between the zoom buttons; `{percent}` is a whole number. */
  zoomValue: string;
  documentLabel: string;
  /** Another signer's field before they signed; `{name}` is theirs. */
  toBeSignedBy: string;
  /** Another signer's field once they signed. */
  signedBy: string;
  /** Sequential signing before this signer's turn; `{names}` are those who sign first. */
  waitingTitle: string;
  waitingBody: string;
  /** This signer is done while others still have to sign. */
  othersPendingBody: string;
  /** Declining: the toolbar's button, the form, and the declined state. */
  decline: string;
  declineTitle: string;
  declineReason: string;
  declineConfirm: string;
  declinedTitle: string;
  declinedBody: string;
  /** Field types and validation: what the signer sees before submitting. */
  invalidEmail: string;
  invalidPhone: string;
  invalidNumber: string;
  /** `{min}`, `{max}` and `{step}` are numbers, formatted for the locale. */
  numberMin: string;
  numberMax: string;
  numberStep: string;
  /** `{count}` characters; plural by `{count}`. */
  tooShort: Message;
  tooLong: Message;
  patternMismatch: string;
  invalidOption: string;
  chooseOption: string;
  imageAdd: string;
  imageChange: string;
  /** `{size}` is the limit, such as "1 MB". */
  imageTooLarge: string;
  /** The step-by-step panel on phones: `{n}` of `{m}` fields. */
  stepCount: string;
  previousField: string;
  closeSteps: string;
  // The signature dialog
  dialogTitleSignature: string;
  dialogTitleInitials: string;
  draw: string;
  type: string;
  upload: string;
  clear: string;
  undo: string;
  drawHint: string;
  typeLabel: string;
  typePlaceholder: string;
  uploadHint: string;
  uploadButton: string;
  invalidImage: string;
  cancel: string;
  apply: string;
}

/** Which value chooses the form of a plural message. */
export const PLURAL_BY: Readonly<Partial<Record<keyof ViewerMessages, string>>> = { progress: 'total', tooShort: 'count', tooLong: 'count' };

/**
 * The texts of the code prompt of a signer who must prove who they are (docs/signer-auth.md). `{document}` is the
 * document's name, `{email}` the masked address, `{name}` the signer's, `{seconds}` the wait, `{attempts}` the tries
 * left. Apart from `ViewerMessages`: the English ones load with the prompt's chunk (`verification-en.ts`), the other
 * languages' with their locale.
 */
export interface VerificationMessages {
  verifyTitle: string;
  verifyEmailBody: string;
  verifyAccessBody: string;
  verifySendCode: string;
  verifyResend: string;
  verifyResendIn: string;
  verifyCodeSent: string;
  verifyCodeLabel: string;
  verifyAccessCodeLabel: string;
  verifySubmit: string;
  verifyWrongCode: string;
  verifyCodeExpired: string;
  verifyLocked: string;
  verifyTooSoon: string;
}

/** English: inline, the fallback of every other language and of any text a translation lacks. */
export const en: ViewerMessages = {
  loadingDocument: 'Loading document…',
  loadingPdf: 'Loading PDF',
  progress: { one: '{done} of {total} required field complete', other: '{done} of {total} required fields complete' },
  next: 'Next field',
  submit: 'Finish and submit',
  submitting: 'Submitting…',
  allComplete: 'All required fields are complete',
  required: 'Required',
  invalidField: 'Needs your attention',
  signHere: 'Sign here',
  initialHere: 'Initial here',
  changeSignature: 'Change',
  completedTitle: 'Document signed',
  completedBody: 'Thank you. Your signature has been recorded.',
  alreadyCompletedTitle: 'Already signed',
  alreadyCompletedBody: 'This document has been completed and can no longer be changed.',
  toBeSignedBy: 'To be signed by {name}',
  signedBy: 'Signed by {name}',
  waitingTitle: 'Not your turn yet',
  waitingBody: 'Waiting for {names} to sign first. You can read the document meanwhile.',
  othersPendingBody: 'Thank you. The document is complete once the others have signed: {names}.',
  decline: 'Decline',
  declineTitle: 'Decline to sign this document?',
  declineReason: 'Tell the sender why',
  declineConfirm: 'Decline to sign',
  declinedTitle: 'Declined',
  declinedBody: 'This document was declined and can no longer be signed.',
  submissionReference: 'Reference',
  signedCopyPreparing: 'Preparing your signed copy…',
  signedCopyDownload: 'Download signed PDF',
  signedCopyUnavailable: 'Your signed copy is taking longer than usual. It will be available from the sender.',
  fixFields: 'Please check the highlighted fields.',
  submitFailed: 'The document could not be submitted. Please try again.',
  retry: 'Try again',
  errorTitle: 'This document cannot be opened',
  errorInvalidKey: 'The signing link is not valid. Please ask the sender for a new link.',
  errorExpiredKey: 'The signing link has expired. Please ask the sender for a new link.',
  errorPermissions: 'This signing link does not allow opening this document.',
  errorNotFound: 'The document was not found. It may have been removed.',
  errorNetwork: 'The signing service could not be reached. Check your connection and try again.',
  errorRateLimited: 'Too many requests right now. Please wait a moment and try again.',
  errorGeneric: 'Something went wrong while loading the document.',
  errorPdf: 'The PDF could not be displayed.',
  voidedTitle: 'This document was cancelled',
  voidedBody: 'The sender cancelled it, so it can no longer be signed.',
  expiredTitle: 'This document has expired',
  expiredBody: 'It can no longer be signed. Please ask the sender for a new one.',
  erasedTitle: 'This document is no longer available',
  erasedBody: 'The sender has deleted it.',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  fitWidth: 'Fit to width',
  zoomValue: '{percent}%',
  documentLabel: 'Document to sign',
  invalidEmail: 'Enter an email address, such as name@example.com',
  invalidPhone: 'Enter a phone number, such as +1 555 010 0199',
  invalidNumber: 'Enter a number',
  numberMin: 'Enter {min} or more',
  numberMax: 'Enter {max} or less',
  numberStep: 'Enter a multiple of {step}',
  tooShort: { one: 'Enter at least {count} character', other: 'Enter at least {count} characters' },
  tooLong: { one: 'Enter at most {count} character', other: 'Enter at most {count} characters' },
  patternMismatch: 'This entry is not in the expected format',
  invalidOption: 'Choose one of the options',
  chooseOption: 'Choose…',
  imageAdd: 'Add a photo or scan',
  imageChange: 'Replace image',
  imageTooLarge: 'The image must be at most {size}',
  stepCount: '{n} of {m}',
  previousField: 'Previous',
  closeSteps: 'Done',
  dialogTitleSignature: 'Add your signature',
  dialogTitleInitials: 'Add your initials',
  draw: 'Draw',
  type: 'Type',
  upload: 'Upload',
  clear: 'Clear',
  undo: 'Undo',
  drawHint: 'Draw your signature above the line',
  typeLabel: 'Your name',
  typePlaceholder: 'Type your name',
  uploadHint: 'PNG, JPEG or WebP image of your signature',
  uploadButton: 'Choose image',
  invalidImage: 'This file is not an image that can be used.',
  cancel: 'Cancel',
  apply: 'Apply',
};


/**
 * `template` with `{name}` placeholders filled in, as they are: no locale, so a plural message gives its `other`
 * form and numbers are not formatted. Components under the viewer use `useTranslator().text(key, values)`, which
 * does both for the viewer's locale.
 * @example format('{done} of {total}', { done: 1, total: 3 }) // '1 of 3'
 */
export function format(template: Message, values: Readonly<Record<string, string | number>>): string {
  return (typeof template === 'string' ? template : template.other).replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * The signature dialog's texts, from the viewer's messages.
 * @example <SignatureDialog labels={signatureDialogLabels(messages, 'initials')} … />
 */
export function signatureDialogLabels(messages: ViewerMessages, kind: 'signature' | 'initials'): SignatureDialogLabels {
  const { draw, type, upload, clear, undo, drawHint, typeLabel, typePlaceholder, uploadHint, uploadButton, invalidImage, cancel, apply } =
    messages;
  const title = kind === 'initials' ? messages.dialogTitleInitials : messages.dialogTitleSignature;
  return { title, draw, type, upload, clear, undo, drawHint, typeLabel, typePlaceholder, uploadHint, uploadButton, invalidImage, cancel, apply };
}
