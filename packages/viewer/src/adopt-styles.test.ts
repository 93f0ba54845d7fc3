import { afterEach, expect, it } from 'vitest';
import { adoptViewerStyles } from './adopt-styles.js';

afterEach(() => document.body.replaceChildren());

function viewerBox(parent: Node): HTMLElement {
  const box = document.createElement('div');
  box.className = 'signet-viewer';
  parent.appendChild(box);
  return box;
}

it('adopts one constructed sheet into the document however many viewers use it, and takes it away after the last', () => {
  const before = document.adoptedStyleSheets.length;
  const box = viewerBox(document.body);
  const first = adoptViewerStyles(document);
  const second = adoptViewerStyles(document);
  expect(document.adoptedStyleSheets).toHaveLength(before + 1);
  expect(document.querySelector('style[data-signet-viewer]')).toBeNull();
  expect(getComputedStyle(box).display).toBe('flex');
  first();
  expect(getComputedStyle(box).display).toBe('flex');
  second();
  expect(document.adoptedStyleSheets).toHaveLength(before);
  expect(getComputedStyle(box).display).toBe('block');
});

it('adopts the sheet into a shadow root, where the document’s styles do not reach, and nowhere else', () => {
  const host = document.createElement('div');
  document.body.append(host);
  const shadow = host.attachShadow({ mode: 'open' });
  const inside = viewerBox(shadow);
  const outside = viewerBox(document.body);
  const release = adoptViewerStyles(shadow);
  expect(getComputedStyle(inside).display).toBe('flex');
  expect(getComputedStyle(outside).display).toBe('block');
  release();
  expect(shadow.adoptedStyleSheets).toEqual([]);
});
