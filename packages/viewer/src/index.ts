export { SigningViewer } from './SigningViewer.js';
export type { SigningViewerProps } from './SigningViewer.js';
export type { UnavailableReason } from './error-message.js';
export { SUPPORTED_LOCALES, loadMessages, matchLocale } from './i18n/locales.js';
export type { SupportedLocale } from './i18n/locales.js';
export type { Message, PluralMessage, ViewerMessages } from './i18n/messages.js';
export { PdfResponseError, configurePdfWorker, preloadPdfWorker } from './pdf/load-pdf.js';
export type { SignedCopyPolling } from './signed-copy/poll-schedule.js';
export { configureHandwritingFont } from './signature/handwriting-font.js';
