export { SigningViewer } from './SigningViewer.js';
export type { SigningViewerProps } from './SigningViewer.js';
export { TRANSLATIONS, resolveMessages } from './i18n/messages.js';
export type { ViewerMessages } from './i18n/messages.js';
export { PdfResponseError, configurePdfWorker, preloadPdfWorker } from './pdf/load-pdf.js';
export type { SignedCopyPolling } from './signed-copy/poll-schedule.js';
export { configureHandwritingFont } from './signature/handwriting-font.js';
