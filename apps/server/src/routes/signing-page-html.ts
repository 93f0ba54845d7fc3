import { createHash } from 'node:crypto';
import { SIGNER_LOCALES, type SignerLocale } from '@signet/contract';
import { signerTexts, textDirection } from '../i18n/signer-texts.js';
import { escapeHtml } from '../mail/signing-invitation.js';
import { accentTheme, LIGHT_TEXT } from './signing-page-theme.js';

/*
 * The HTML of the hosted signing page (docs/email.md, "The hosted signing page"): the `<signet-signing-viewer>`
 * element of `/embed.js` under a header naming the organization and the document, or a short page saying why a link
 * does not open. No inline script; the one inline style sheet is allowed by its hash in the page's CSP. An
 * organization's brand colour (docs/email.md, "Branding") is a few rules more in that sheet, so its page's CSP
 * names the hash of its own sheet: no `'unsafe-inline'`, no `style` attribute.
 */

const CSS = `
:root { color-scheme: light; --signet-accent: #2f5bea; }
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { display: flex; flex-direction: column; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111827; background: #f3f4f6; }
.bar { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline; justify-content: space-between; padding: 12px 20px; background: #ffffff; border-bottom: 1px solid #e5e7eb; }
.bar h1 { margin: 0; font-size: 17px; font-weight: 600; }
.bar .org { color: #4b5563; font-weight: 400; }
.bar .who { color: #4b5563; font-size: 14px; }
main { flex: 1; min-height: 0; display: flex; }
signet-signing-viewer { display: block; flex: 1; min-height: 480px; }
.notice { align-self: flex-start; margin: 12vh auto; max-width: 520px; padding: 32px; background: #ffffff; border: 1px solid #e5e7eb; border-radius: 12px; text-align: center; }
.notice h1 { margin: 0 0 12px; font-size: 22px; }
.notice p { margin: 0; color: #4b5563; line-height: 1.5; }
`;

/** The `style-src` source of a style sheet: its hash. */
const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

/**
 * The page's Content-Security-Policy for its inline style sheet `css`: scripts, styles, workers and requests from
 * this server only (and that sheet by its hash); no framing, no forms, no `<base>`.
 */
export function signingPageCsp(css: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' ${styleHash(css)}`,
    "img-src 'self' data: blob:",
    "font-src 'self' data: blob:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The CSP of every page in the default colours: the notices, and the signing page of an organization without a brand colour. */
export const SIGNING_PAGE_CSP = signingPageCsp(CSS);

/**
 * The style sheet of a page in `brandColor`: the default one, then the header bar in the colour with its text, and
 * the viewer's accent (its buttons, progress and fields, through its `--signet-*` custom properties). Only a
 * `#rrggbb` value is written (`accentTheme`); anything else leaves the default.
 */
export function pageStyle(brandColor: string | null): string {
  const theme = accentTheme(brandColor);
  if (!theme) return CSS;
  return `${CSS}:root { --signet-accent: ${theme.viewerAccent}; --signet-accent-text: ${LIGHT_TEXT}; --signet-field-bg: ${theme.fieldTint}; }
.bar { background: ${theme.accent}; color: ${theme.accentText}; border-bottom-color: transparent; }
.bar .org, .bar .who { color: inherit; }
`;
}

/**
 * The viewer's language that an `Accept-Language` header prefers (by its q values, then its order), else English.
 * @example pageLocale('fr-CH, fr;q=0.9, en;q=0.8') // 'fr'
 */
export function pageLocale(acceptLanguage: string | undefined): SignerLocale {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { language: tag.trim().toLowerCase().split('-')[0]!, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { language } of ranked) {
    const found = SIGNER_LOCALES.find((locale) => locale === language);
    if (found) return found;
  }
  return 'en';
}

function layout(options: { title: string; locale: SignerLocale; head?: string; body: string; style?: string }): string {
  return `<!doctype html>
<html lang="${options.locale}" dir="${textDirection(options.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(options.title)}</title>
<style>${options.style ?? CSS}</style>
${options.head ?? ''}
</head>
<body>
${options.body}
</body>
</html>
`;
}

/** What the signing page shows: whose document, which, for whom, and the session the viewer signs with. */
export interface SigningPageView {
  organizationName: string;
  documentName: string;
  signerName: string;
  documentId: string;
  apiKey: string;
  baseUrl: string;
  /** The signer's language, or the browser's: the page's and the viewer's. */
  locale: SignerLocale;
  /** The organization's brand colour, `#rrggbb`, or null for the default accent. */
  brandColor: string | null;
}

/** A page and the Content-Security-Policy it must be sent with (its style sheet's hash). */
export interface SigningPage {
  html: string;
  csp: string;
}

/** The signing page: the header, and the viewer loaded from this server's `/embed.js`, in the organization's colour. */
export function signingPageHtml(view: SigningPageView): SigningPage {
  const e = escapeHtml;
  const style = pageStyle(view.brandColor);
  const { page } = signerTexts(view.locale);
  const html = layout({
    title: page.title(view.organizationName, view.documentName),
    locale: view.locale,
    style,
    head: '<script type="module" src="/embed.js"></script>',
    body: `<header class="bar">
<h1>${e(view.documentName)} <span class="org">${e(page.from(view.organizationName))}</span></h1>
<div class="who">${e(page.signingAs(view.signerName))}</div>
</header>
<main>
<signet-signing-viewer document-id="${e(view.documentId)}" api-key="${e(view.apiKey)}" base-url="${e(view.baseUrl)}" locale="${e(view.locale)}"></signet-signing-viewer>
</main>`,
  });
  return { html, csp: signingPageCsp(style) };
}

/** A page saying why a link does not open, and what to do. */
export function signingNoticeHtml(notice: { title: string; message: string; locale: SignerLocale }): string {
  return layout({
    title: notice.title,
    locale: notice.locale,
    body: `<main><div class="notice" role="status"><h1>${escapeHtml(notice.title)}</h1><p>${escapeHtml(notice.message)}</p></div></main>`,
  });
}
