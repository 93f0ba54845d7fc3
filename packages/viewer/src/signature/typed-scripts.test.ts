import { expect, test } from 'vitest';
import { renderTypedSignature } from './render-typed.js';

/** The pixels of a typed signature, to compare two drawings. */
async function drawn(text: string): Promise<string> {
  return (await renderTypedSignature(text, { scale: 1, fontSizePx: 48 })).toDataURL();
}

// Characters no font has (private use) are drawn as the fallback's "missing glyph" box: a name in a script that
// the font stack does not cover would look exactly like them.
test.each([
  ['Arabic', 'ليلى حداد', '\uE000\uE001\uE002\uE003 \uE004\uE005\uE006\uE007'],
  ['Japanese', '山田花子', '\uE000\uE001\uE002\uE003'],
  ['Cyrillic', 'Анна Павлова', '\uE000\uE001\uE002\uE003 \uE004\uE005\uE006\uE007\uE008\uE009\uE00A'],
])('a typed %s name is drawn in real glyphs, not missing-glyph boxes', async (_script, name, missing) => {
  expect(await drawn(name)).not.toBe(await drawn(missing));
  // Each glyph is its own shape: two different names do not draw alike either.
  expect(await drawn(name)).not.toBe(await drawn([...name].reverse().join('')));
});
