import type { SignatureDialogLabels } from '../signature/SignatureDialog.js';

/** Every text the viewer shows. A host overrides any of them through the `messages` prop. */
export interface ViewerMessages {
  loadingDocument: string;
  loadingPdf: string;
  progress: string;
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
  /** Declining (issue 19): the toolbar's button, the form, and the declined state. */
  decline: string;
  declineTitle: string;
  declineReason: string;
  declineConfirm: string;
  declinedTitle: string;
  declinedBody: string;
  /** Field types and validation (issue 19, item 3): what the signer sees before submitting. */
  invalidEmail: string;
  invalidPhone: string;
  invalidNumber: string;
  /** `{min}`, `{max}` and `{step}` are numbers, formatted for the locale. */
  numberMin: string;
  numberMax: string;
  numberStep: string;
  /** `{count}` characters. */
  tooShort: string;
  tooLong: string;
  patternMismatch: string;
  invalidOption: string;
  chooseOption: string;
  imageAdd: string;
  imageChange: string;
  /** `{size}` is the limit, such as "1 MB". */
  imageTooLarge: string;
  /** The step-by-step panel on phones (issue 19, item 6): `{n}` of `{m}` fields. */
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

const en: ViewerMessages = {
  loadingDocument: 'Loading document…',
  loadingPdf: 'Loading PDF',
  progress: '{done} of {total} required fields complete',
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
  tooShort: 'Enter at least {count} characters',
  tooLong: 'Enter at most {count} characters',
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

const de: ViewerMessages = {
  loadingDocument: 'Dokument wird geladen…',
  loadingPdf: 'PDF wird geladen',
  progress: '{done} von {total} Pflichtfeldern ausgefüllt',
  next: 'Nächstes Feld',
  submit: 'Abschließen und senden',
  submitting: 'Wird gesendet…',
  allComplete: 'Alle Pflichtfelder sind ausgefüllt',
  required: 'Pflichtfeld',
  invalidField: 'Bitte prüfen',
  signHere: 'Hier unterschreiben',
  initialHere: 'Hier paraphieren',
  changeSignature: 'Ändern',
  completedTitle: 'Dokument unterschrieben',
  completedBody: 'Vielen Dank. Ihre Unterschrift wurde gespeichert.',
  alreadyCompletedTitle: 'Bereits unterschrieben',
  alreadyCompletedBody: 'Dieses Dokument ist abgeschlossen und kann nicht mehr geändert werden.',
  toBeSignedBy: 'Zu unterschreiben von {name}',
  signedBy: 'Unterschrieben von {name}',
  waitingTitle: 'Noch nicht an der Reihe',
  waitingBody: 'Zuerst unterschreiben: {names}. Sie können das Dokument bis dahin lesen.',
  othersPendingBody: 'Vielen Dank. Das Dokument ist vollständig, sobald die anderen unterschrieben haben: {names}.',
  decline: 'Ablehnen',
  declineTitle: 'Unterschrift ablehnen?',
  declineReason: 'Teilen Sie dem Absender den Grund mit',
  declineConfirm: 'Unterschrift ablehnen',
  declinedTitle: 'Abgelehnt',
  declinedBody: 'Dieses Dokument wurde abgelehnt und kann nicht mehr unterschrieben werden.',
  submissionReference: 'Referenz',
  signedCopyPreparing: 'Ihre unterschriebene Kopie wird vorbereitet…',
  signedCopyDownload: 'Unterschriebenes PDF herunterladen',
  signedCopyUnavailable: 'Ihre unterschriebene Kopie braucht länger als üblich. Sie erhalten sie vom Absender.',
  fixFields: 'Bitte prüfen Sie die markierten Felder.',
  submitFailed: 'Das Dokument konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
  retry: 'Erneut versuchen',
  errorTitle: 'Dieses Dokument kann nicht geöffnet werden',
  errorInvalidKey: 'Der Link zum Unterschreiben ist ungültig. Bitte fordern Sie einen neuen Link an.',
  errorExpiredKey: 'Der Link zum Unterschreiben ist abgelaufen. Bitte fordern Sie einen neuen Link an.',
  errorPermissions: 'Dieser Link erlaubt es nicht, dieses Dokument zu öffnen.',
  errorNotFound: 'Das Dokument wurde nicht gefunden. Möglicherweise wurde es entfernt.',
  errorNetwork: 'Der Dienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  errorRateLimited: 'Gerade zu viele Anfragen. Bitte warten Sie einen Moment.',
  errorGeneric: 'Beim Laden des Dokuments ist ein Fehler aufgetreten.',
  errorPdf: 'Das PDF konnte nicht angezeigt werden.',
  zoomIn: 'Vergrößern',
  zoomOut: 'Verkleinern',
  fitWidth: 'An Breite anpassen',
  zoomValue: '{percent}\u00a0%',
  documentLabel: 'Zu unterschreibendes Dokument',
  invalidEmail: 'Geben Sie eine E-Mail-Adresse ein, z. B. name@example.com',
  invalidPhone: 'Geben Sie eine Telefonnummer ein, z. B. +49 30 1234567',
  invalidNumber: 'Geben Sie eine Zahl ein',
  numberMin: 'Geben Sie {min} oder mehr ein',
  numberMax: 'Geben Sie {max} oder weniger ein',
  numberStep: 'Geben Sie ein Vielfaches von {step} ein',
  tooShort: 'Geben Sie mindestens {count} Zeichen ein',
  tooLong: 'Geben Sie höchstens {count} Zeichen ein',
  patternMismatch: 'Diese Eingabe hat nicht das erwartete Format',
  invalidOption: 'Wählen Sie eine der Optionen',
  chooseOption: 'Bitte wählen…',
  imageAdd: 'Foto oder Scan hinzufügen',
  imageChange: 'Bild ersetzen',
  imageTooLarge: 'Das Bild darf höchstens {size} groß sein',
  stepCount: '{n} von {m}',
  previousField: 'Zurück',
  closeSteps: 'Fertig',
  dialogTitleSignature: 'Unterschrift hinzufügen',
  dialogTitleInitials: 'Initialen hinzufügen',
  draw: 'Zeichnen',
  type: 'Tippen',
  upload: 'Hochladen',
  clear: 'Löschen',
  undo: 'Rückgängig',
  drawHint: 'Unterschreiben Sie über der Linie',
  typeLabel: 'Ihr Name',
  typePlaceholder: 'Namen eingeben',
  uploadHint: 'PNG-, JPEG- oder WebP-Bild Ihrer Unterschrift',
  uploadButton: 'Bild auswählen',
  invalidImage: 'Diese Datei ist kein verwendbares Bild.',
  cancel: 'Abbrechen',
  apply: 'Übernehmen',
};

/** The shipped translations, by language. */
export const TRANSLATIONS: Readonly<Record<string, ViewerMessages>> = { en, de };

/**
 * The messages for `locale` (its language, English when not shipped), with the host's overrides on top.
 * @example resolveMessages('de-AT', { submit: 'Unterschreiben' }).submit // 'Unterschreiben'
 */
export function resolveMessages(locale: string | undefined, overrides?: Partial<ViewerMessages>): ViewerMessages {
  const language = (locale ?? 'en').toLowerCase().split(/[-_]/)[0] ?? 'en';
  return { ...(TRANSLATIONS[language] ?? en), ...overrides };
}

/**
 * `template` with `{name}` placeholders filled in.
 * @example format('{done} of {total}', { done: 1, total: 3 }) // '1 of 3'
 */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
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
