import { expect, test } from 'vitest';
import { HANDWRITING_FONT_FAMILY, HANDWRITING_FONT_STACK, loadHandwritingFont } from './handwriting-font.js';
import { renderTypedSignature } from './render-typed.js';

const loadedRanges = () =>
  [...document.fonts]
    .filter((face) => face.family.replaceAll('"', '') === HANDWRITING_FONT_FAMILY && face.status === 'loaded')
    .map((face) => face.unicodeRange);

test('Caveat is registered once and loads just the subsets a name needs', async () => {
  const font = await loadHandwritingFont('Ada', 48);
  expect(font).toBe(`48px ${HANDWRITING_FONT_STACK}`);
  await loadHandwritingFont('Ada', 48);
  expect([...document.fonts].filter((face) => face.family.replaceAll('"', '') === HANDWRITING_FONT_FAMILY)).toHaveLength(4);
  // WebKit serializes the range in lower case.
  expect(loadedRanges()).toEqual([expect.stringMatching(/^U\+0-FF,/i)]);

  await loadHandwritingFont('Łukasz Dvořák', 48);
  expect(loadedRanges()).toHaveLength(2);
});

test('a typed signature is drawn in Caveat, not in the fallback face', async () => {
  const text = 'Grace Hopper';
  const typed = await renderTypedSignature(text, { scale: 1 });
  const context = document.createElement('canvas').getContext('2d')!;
  context.font = '72px cursive';
  const fallback = context.measureText(text);
  context.font = await loadHandwritingFont(text, 72);
  const caveat = context.measureText(text);
  expect(Math.abs(caveat.width - fallback.width)).toBeGreaterThan(5);
  // The canvas is sized to Caveat's glyphs (plus a quarter-em margin each side).
  const inkWidth = caveat.actualBoundingBoxLeft + caveat.actualBoundingBoxRight;
  expect(typed.width).toBe(Math.ceil(inkWidth) + 2 * Math.ceil(72 * 0.25));
});
