import { cdp, commands, server, userEvent } from 'vitest/browser';
import type { ClickModifier, PagePoint, PointerKind } from '../test-support/pointer-commands.js';

/**
 * Browser-test input for the signature tests: real mouse, pen and touch input made by the browser itself (so the
 * browser makes the pointer events, as for a person), and PNG decoding. Chromium gets it through the Chrome DevTools
 * Protocol; WebKit and Firefox through WebDriver actions (the `pointerStroke` command).
 */

export type { PointerKind };

/** A point inside an element, as fractions of its width and height. */
export type RelativePoint = readonly [x: number, y: number];

/**
 * The kinds of pointer an engine's automation cannot produce, and what it does when asked (docs/decisions.md).
 * Checked by the tests rather than assumed, so that they notice the day an engine can.
 */
const CANNOT_PRODUCE: Record<string, Partial<Record<PointerKind, RegExp>>> = {
  // WebKitGTK's WebDriver is built without touch interactions: it sends a touch source's actions as mouse input.
  safari: { touch: /arrived as "mouse"/ },
  // Firefox's WebDriver actions leave pen pointers unimplemented (a placeholder), and Playwright has no other way in.
  firefox: { pen: /Unimplemented pointer\w+ for pointerType pen/ },
};

/**
 * What drawing with `kind` fails with in this engine, because its automation cannot produce that input; `undefined`
 * where it can.
 * @example
 * const gap = inputGap('touch');
 * if (gap) await expect(drawStroke(canvas, scribble(0, 1), 'touch')).rejects.toThrow(gap);
 */
export function inputGap(kind: PointerKind): RegExp | undefined {
  return CANNOT_PRODUCE[server.browser]?.[kind];
}

interface CdpInput {
  send(method: string, params: Record<string, unknown>): Promise<unknown>;
}
const input = () => cdp() as unknown as CdpInput;

/**
 * Draws one stroke across `element` through `points`. Moves are paced a frame apart (as a hand's are), because
 * signature_pad samples moves at most every 16 ms and would otherwise keep only the first and last of a burst.
 * Rejects unless the stroke reached `element` as trusted pointer events of `kind`: a driver may send another kind
 * without a word (WebKitGTK's sends touch as mouse).
 */
export async function drawStroke(element: Element, points: readonly RelativePoint[], kind: PointerKind = 'mouse'): Promise<void> {
  const rect = element.getBoundingClientRect();
  const at = points.map(([fx, fy]) => toTopPage(rect.left + fx * rect.width, rect.top + fy * rect.height));
  if (at.length === 0) throw new Error('A stroke needs at least one point');
  const downs: PointerEvent[] = [];
  const record = (event: Event) => downs.push(event as PointerEvent);
  element.addEventListener('pointerdown', record);
  try {
    if (server.browser === 'chromium') await strokeThroughCdp(at, kind);
    else await commands.pointerStroke(at, kind);
  } finally {
    element.removeEventListener('pointerdown', record);
  }
  const arrived = downs.map((event) => `${event.isTrusted ? '' : 'untrusted '}"${event.pointerType}"`);
  if (arrived.length !== 1 || arrived[0] !== `"${kind}"`) {
    throw new Error(`A ${kind} stroke arrived as ${arrived.join(', ') || 'nothing'} on ${element.tagName.toLowerCase()}`);
  }
}

async function strokeThroughCdp(at: readonly PagePoint[], kind: PointerKind): Promise<void> {
  const [first, ...rest] = at;
  const last = at[at.length - 1];
  if (!first || !last) throw new Error('A stroke needs at least one point');
  if (kind === 'touch') {
    await input().send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ ...first, id: 1 }] });
    for (const point of rest) {
      await nextMove();
      await input().send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ ...point, id: 1 }] });
    }
    await nextMove();
    await input().send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    return;
  }
  const pointer = { button: 'left', pointerType: kind, ...(kind === 'pen' ? { force: 0.5 } : {}) };
  await input().send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...first, buttons: 0, pointerType: kind });
  await input().send('Input.dispatchMouseEvent', { type: 'mousePressed', ...first, ...pointer, buttons: 1, clickCount: 1 });
  for (const point of rest) {
    await nextMove();
    await input().send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...point, ...pointer, buttons: 1 });
  }
  // The pointer rests a moment before the release, as in the WebDriver strokes (`pointer-commands.ts`).
  await nextMove();
  await input().send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...last, ...pointer, buttons: 0, clickCount: 1 });
}

/** A wavy left-to-right stroke between `from` and `to` (fractions of the element's width) at height `y`. */
export function scribble(from: number, to: number, y = 0.5, steps = 6): RelativePoint[] {
  return Array.from({ length: steps + 1 }, (_, i) => [from + ((to - from) * i) / steps, y + (i % 2 === 0 ? -0.12 : 0.12)] as const);
}

/** The pixels of a PNG data URL, once it is checked to be a PNG. */
export async function decodePng(dataUrl: string): Promise<ImageData> {
  if (!dataUrl.startsWith('data:image/png;base64,')) throw new Error(`Not a PNG data URL: ${dataUrl.slice(0, 40)}…`);
  const blob = await (await fetch(dataUrl)).blob();
  const signature = new Uint8Array(await blob.slice(0, 8).arrayBuffer());
  if (signature.join() !== '137,80,78,71,13,10,26,10') throw new Error('The data URL does not hold a PNG');
  const bitmap = await createImageBitmap(blob);
  return pixelsOf(bitmap);
}

/** The pixels of a canvas or bitmap. */
export function pixelsOf(source: HTMLCanvasElement | ImageBitmap): ImageData {
  const canvas = document.createElement('canvas');
  canvas.width = source.width;
  canvas.height = source.height;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(source, 0, 0);
  return context.getImageData(0, 0, canvas.width, canvas.height);
}

/** How many pixels of `image` inside the given fractions of its width have alpha above 8 (visible ink). */
export function inkPixels(image: ImageData, fromX = 0, toX = 1): number {
  let count = 0;
  const x0 = Math.floor(fromX * image.width);
  const x1 = Math.ceil(toX * image.width);
  for (let y = 0; y < image.height; y++) {
    for (let x = x0; x < x1; x++) if (image.data[(y * image.width + x) * 4 + 3]! > 8) count++;
  }
  return count;
}

/**
 * A point in this test frame's CSS pixels, in the top page's CSS pixels: where CDP input lands, and WebDriver's
 * viewport-origin actions too, in WebKit and Firefox alike, even while the session is switched into the test frame.
 */
/**
 * Clicks `element` at its centre with `modifier` held. `userEvent.click`'s `modifiers` reach the page in Chromium and
 * Firefox; in WebKit it is WebDriver's element click, which takes none, so there the click is one action sequence of
 * a held key and the mouse (`clickWithModifier` in pointer-commands.ts).
 */
export async function clickWith(element: Element, modifier: ClickModifier): Promise<void> {
  if (server.provider !== 'webdriverio') return userEvent.click(element, { modifiers: [modifier] });
  element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const rect = element.getBoundingClientRect();
  await commands.clickWithModifier(toTopPage(rect.left + rect.width / 2, rect.top + rect.height / 2), modifier);
}

function toTopPage(x: number, y: number): PagePoint {
  const frame = window.frameElement as HTMLElement | null;
  if (!frame) return { x, y };
  const rect = frame.getBoundingClientRect();
  // Vitest's UI shows the test frame scaled to fit its window.
  const scale = rect.width / frame.offsetWidth;
  return { x: rect.left + (frame.clientLeft + x) * scale, y: rect.top + (frame.clientTop + y) * scale };
}

function nextMove(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 20));
}
