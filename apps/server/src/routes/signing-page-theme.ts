import { BRAND_COLOR_PATTERN } from '@signet/contract';

/*
 * The hosted signing page in an organization's brand colour (docs/email.md, "Branding"): the accent of its header bar
 * and of the viewer's buttons, with the text on it white or black, whichever contrasts more (WCAG 2's contrast
 * ratio; docs/decisions.md, "Branding: a hex colour, a text colour chosen by contrast").
 */

/**
 * The text colours the page chooses from: white and black. Black, not the page's near-black `#111827`: between white
 * and black the better one always reaches 4.58:1, WCAG's AA for text, whatever the colour; with `#111827` a pure red
 * would get 4.4:1.
 */
export const LIGHT_TEXT = '#ffffff';
export const DARK_TEXT = '#000000';

/** A page's accent and the text drawn on it. */
export interface AccentTheme {
  accent: string;
  accentText: string;
}

/** WCAG 2's relative luminance of a `#rrggbb` colour: 0 for black to 1 for white. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * WCAG 2's contrast ratio of two `#rrggbb` colours, 1 (none) to 21 (black on white).
 * @example contrastRatio('#ffffff', '#000000') // 21
 */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The theme of a brand colour: the colour, in lower case, and the text colour that contrasts more with it. Null for
 * anything but `#rrggbb` (no colour set, or a stored value that is not one): the page keeps its default accent, and
 * nothing but six hex digits ever reaches its style sheet.
 * @example accentTheme('#0a7d4f') // { accent: '#0a7d4f', accentText: '#ffffff' }
 */
export function accentTheme(brandColor: string | null | undefined): AccentTheme | null {
  if (typeof brandColor !== 'string' || !BRAND_COLOR_PATTERN.test(brandColor)) return null;
  const accent = brandColor.toLowerCase();
  const accentText = contrastRatio(accent, LIGHT_TEXT) >= contrastRatio(accent, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
  return { accent, accentText };
}
