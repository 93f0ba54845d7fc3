import { BRAND_COLOR_PATTERN } from '@signet/contract';

/*
 * The hosted signing page in an organization's brand colour (docs/email.md, "Branding"): its header bar in the colour,
 * with the text on it white or black, whichever contrasts more (WCAG 2's contrast ratio), and the viewer's accent in
 * the colour too, darkened where it is too light to be read on white (docs/decisions.md, "Branding: a hex colour, a
 * text colour chosen by contrast").
 */

/**
 * The text colours the bar chooses from: white and black. Black, not the page's near-black `#111827`: between white
 * and black the better one always reaches 4.58:1, WCAG's AA for text, whatever the colour; with `#111827` a pure red
 * would get 4.4:1.
 */
export const LIGHT_TEXT = '#ffffff';
export const DARK_TEXT = '#000000';

/** WCAG's AA contrast for text: what the viewer's accent needs on its white surfaces, where it is the colour of words. */
export const TEXT_CONTRAST = 4.5;

/** A page's colours from a brand colour. */
export interface AccentTheme {
  /** The brand colour, in lower case: the header bar. */
  accent: string;
  /** White or black, whichever contrasts more with `accent`: the bar's text. */
  accentText: string;
  /**
   * The viewer's accent (`--signet-accent`, with white text on it): the brand colour, or for a light one the same
   * colour darkened until it reads on white, since the viewer writes some words (secondary buttons) in its accent.
   */
  viewerAccent: string;
  /** The faint shade of fields to fill, 7 % of the viewer's accent, as the viewer's default is of its own accent. */
  fieldTint: string;
}

const channels = (hex: string) => [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)) as [number, number, number];
const toHex = (rgb: readonly number[]) => `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2's relative luminance of a `#rrggbb` colour: 0 for black to 1 for white. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
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

/** `hex` itself when it reads on white, else it mixed with ever more black until it does (black, at worst, does). */
function readableOnWhite(hex: string): string {
  const rgb = channels(hex);
  for (let share = 0; share < 1; share += 0.02) {
    const mixed = toHex(rgb.map((channel) => channel * (1 - share)));
    if (contrastRatio(mixed, LIGHT_TEXT) >= TEXT_CONTRAST) return mixed;
  }
  return DARK_TEXT;
}

/**
 * The theme of a brand colour. Null for anything but `#rrggbb` (no colour set, or a stored value that is not one):
 * the page keeps its default accent, and nothing but six hex digits, or numbers made from them, reaches its style
 * sheet.
 * @example accentTheme('#0a7d4f') // { accent: '#0a7d4f', accentText: '#ffffff', viewerAccent: '#0a7d4f', fieldTint: 'rgba(10, 125, 79, 0.07)' }
 */
export function accentTheme(brandColor: string | null | undefined): AccentTheme | null {
  if (typeof brandColor !== 'string' || !BRAND_COLOR_PATTERN.test(brandColor)) return null;
  const accent = brandColor.toLowerCase();
  const accentText = contrastRatio(accent, LIGHT_TEXT) >= contrastRatio(accent, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
  const viewerAccent = readableOnWhite(accent);
  const [r, g, b] = channels(viewerAccent);
  return { accent, accentText, viewerAccent, fieldTint: `rgba(${r}, ${g}, ${b}, 0.07)` };
}
