import { describe, expect, it } from 'vitest';
import { accentTheme, contrastRatio, DARK_TEXT, LIGHT_TEXT } from './signing-page-theme.js';

describe('contrastRatio', () => {
  it("is WCAG 2's ratio: 21 for black on white, 1 for a colour on itself, the same either way round", () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#0a7d4f', '#0a7d4f')).toBe(1);
    // Values the WCAG examples and common checkers give.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#2f5bea', '#ffffff')).toBeCloseTo(5.55, 1);
  });
});

describe('accentTheme', () => {
  it('puts white on dark colours and near-black on light ones, whichever contrasts more', () => {
    for (const dark of ['#0a7d4f', '#2f5bea', '#7c3aed', '#000000', '#b91c1c']) {
      expect(accentTheme(dark), dark).toMatchObject({ accent: dark, accentText: LIGHT_TEXT });
    }
    for (const light of ['#ffd400', '#ffffff', '#a3e635', '#67e8f9', '#f59e0b']) {
      expect(accentTheme(light), light).toMatchObject({ accent: light, accentText: DARK_TEXT });
    }
    for (const color of ['#0a7d4f', '#ffd400', '#ff0000', '#808080', '#00ff00', '#767676', '#7a7a7a', '#ff4500', '#0000ff']) {
      const { accentText } = accentTheme(color)!;
      const other = accentText === LIGHT_TEXT ? DARK_TEXT : LIGHT_TEXT;
      expect(contrastRatio(color, accentText)).toBeGreaterThanOrEqual(contrastRatio(color, other));
      // Between white and black, the better one always reaches WCAG's AA for text.
      expect(contrastRatio(color, accentText), color).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("keeps a dark colour as the viewer's accent and darkens a light one until it reads on white, same hue", () => {
    for (const dark of ['#0a7d4f', '#2f5bea', '#000000']) expect(accentTheme(dark)!.viewerAccent).toBe(dark);
    for (const light of ['#ffd400', '#ffffff', '#a3e635', '#67e8f9', '#ff0000', '#767677']) {
      const { viewerAccent } = accentTheme(light)!;
      expect(contrastRatio(viewerAccent, LIGHT_TEXT), `${light} → ${viewerAccent}`).toBeGreaterThanOrEqual(4.5);
      // Darkened no further than needed: a step lighter would not read.
      expect(contrastRatio(viewerAccent, LIGHT_TEXT), `${light} → ${viewerAccent}`).toBeLessThan(5.2);
    }
    expect(accentTheme('#ffd400')).toMatchObject({ accentText: DARK_TEXT, viewerAccent: expect.stringMatching(/^#[0-9a-f]{6}$/) });
    // Same hue: red stays red, yellow stays yellow (its channels keep their ratios).
    const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(accentTheme('#ffd400')!.viewerAccent.slice(at, at + 2), 16)) as [number, number, number];
    expect(b).toBe(0);
    expect(g / r).toBeCloseTo(0xd4 / 0xff, 1);
  });

  it('writes the colour in lower case, and refuses anything but #rrggbb', () => {
    expect(accentTheme('#0A7D4F')).toEqual({ accent: '#0a7d4f', accentText: LIGHT_TEXT, viewerAccent: '#0a7d4f', fieldTint: 'rgba(10, 125, 79, 0.07)' });
    for (const value of [null, undefined, '', 'red', '#fff', '#0a7d4f;}', ' #0a7d4f', '#0a7d4f\n', 'url(x)']) {
      expect(accentTheme(value), String(value)).toBeNull();
    }
  });
});
