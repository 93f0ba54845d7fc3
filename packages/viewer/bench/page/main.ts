import type { BenchApi, MountedBuilder, MountedViewer, ViewerName } from './protocol.js';

type Entry = { mount(root: HTMLElement, params: Parameters<BenchApi['run']>[1]): MountedViewer };

const root = document.getElementById('root')!;
const entries = new Map<ViewerName, Entry>();
let mounted: MountedViewer | null = null;
let builderEntry: { mount(root: HTMLElement, params: Parameters<BenchApi['runBuilder']>[0]): MountedBuilder } | null = null;
let builder: MountedBuilder | null = null;
let frames: { times: number[]; stop: boolean } | null = null;

// Counted from the start, so that canvases created and dropped between two scroll steps are seen too.
let maxCanvases = 0;
new MutationObserver(() => {
  maxCanvases = Math.max(maxCanvases, document.getElementsByTagName('canvas').length);
}).observe(document.body, { childList: true, subtree: true });

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`bench: condition not met within ${timeoutMs} ms`);
    await frame();
  }
}

function current(): MountedViewer & { element: HTMLElement } {
  const element = mounted?.scroller();
  if (!mounted || !element) throw new Error('bench: no viewer mounted');
  return Object.assign(mounted, { element });
}

window.signetBench = {
  async load(viewer) {
    entries.set(viewer, viewer === 'signet' ? await import('./signet-entry.js') : await import('./pdfjs-entry.js'));
  },
  async run(viewer, params) {
    const entry = entries.get(viewer);
    if (!entry) throw new Error(`bench: entry ${viewer} not loaded`);
    mounted = entry.mount(root, params);
    const [firstPaint, pageDrawn, interactive] = await Promise.all([mounted.firstPaint, mounted.pageDrawn, mounted.interactive]);
    return { firstPaint, pageDrawn, interactive };
  },
  async scrollStep() {
    const viewer = current();
    viewer.element.scrollTop += viewer.element.clientHeight;
    await frame();
    await until(() => viewer.viewDrawn(), 10_000);
    return viewer.element.scrollTop + viewer.element.clientHeight >= viewer.element.scrollHeight - 1;
  },
  async lastPagePainted() {
    const viewer = current();
    await until(() => viewer.lastPageDrawn(), 10_000);
  },
  maxCanvases: () => maxCanvases,
  async loadBuilder() {
    builderEntry = await import('./builder-entry.js');
  },
  async runBuilder(params) {
    if (!builderEntry) throw new Error('bench: the builder entry is not loaded');
    builder = builderEntry.mount(root, params);
    return builder.ready;
  },
  async builderSettled() {
    const mountedBuilder = builder;
    if (!mountedBuilder) throw new Error('bench: no builder mounted');
    await until(() => mountedBuilder.viewDrawn(), 30_000);
  },
  builderBoxes(fieldId) {
    const field = builder?.fieldBox(fieldId);
    const page = builder?.pageBox(1);
    if (!field || !page) throw new Error(`bench: no field ${fieldId} or page 1 in the builder`);
    return { field, page };
  },
  startFrames() {
    const log = { times: [] as number[], stop: false };
    frames = log;
    performance.mark('bench-drag-start');
    const tick = (time: number) => {
      if (log.stop) return;
      log.times.push(time);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  },
  stopFrames() {
    performance.mark('bench-drag-end');
    if (!frames) return [];
    frames.stop = true;
    const { times } = frames;
    frames = null;
    return times.slice(1).map((time, i) => time - times[i]!);
  },
};
