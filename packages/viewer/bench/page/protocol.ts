/** What the bench driver (Node, through Playwright) and the bench page share. */

export type ViewerName = 'signet' | 'pdfjs';

/** Where the document is: the same inputs `<SigningViewer>` gets. */
export interface BenchParams {
  baseUrl: string;
  documentId: string;
  apiKey: string;
}

/**
 * A viewer mounted by an entry. Times are milliseconds from the `mount` call (`performance.now()`), so loading
 * the entry's own code is not counted; fetching the document's metadata and the PDF, starting the pdf.js worker
 * and drawing are.
 */
export interface MountedViewer {
  /** Page 1 is on screen: an image of it (Signet's server-rendered preview) or its drawn bitmap, whichever is first. */
  firstPaint: Promise<number>;
  /** pdf.js has drawn page 1 and its bitmap is on screen. */
  pageDrawn: Promise<number>;
  /** The reader can act: see each entry for its definition (null where a viewer has no such notion). */
  interactive: Promise<number | null>;
  /** The element that scrolls the pages (once mounted). */
  scroller(): HTMLElement | null;
  /** Whether every page in view has been drawn. */
  viewDrawn(): boolean;
  /** Whether the last page has been drawn. */
  lastPageDrawn(): boolean;
  unmount(): void;
}

export interface MountTimes {
  firstPaint: number;
  pageDrawn: number;
  interactive: number | null;
}

/** A box in the page's CSS pixels (viewport coordinates). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** `<SigningBuilder>` mounted by `builder-entry.tsx`. */
export interface MountedBuilder {
  /** A field can be dropped: ms from `mount` (see `builder-entry.tsx`). */
  ready: Promise<number>;
  /** Where a field's box is now, or null. */
  fieldBox(id: string): Box | null;
  /** Where page `n`'s box is now, or null. */
  pageBox(n: number): Box | null;
  /** Whether every page in view has pdf.js's bitmap on screen. */
  viewDrawn(): boolean;
  unmount(): void;
}

/** The page's API, on `window.signetBench`. */
export interface BenchApi {
  /** Imports an entry's code (not timed). */
  load(viewer: ViewerName): Promise<void>;
  /** Mounts the loaded entry on the page and waits for its times. */
  run(viewer: ViewerName, params: BenchParams): Promise<MountTimes>;
  /** Scrolls the mounted viewer down one viewport and waits until the pages in view are drawn; true at the end. */
  scrollStep(): Promise<boolean>;
  /** Resolves once the last page is drawn. */
  lastPagePainted(): Promise<void>;
  /** Most `<canvas>` elements in the document at any moment since the page loaded. */
  maxCanvases(): number;
  /** Imports the builder's entry (not timed). */
  loadBuilder(): Promise<void>;
  /** Mounts `<SigningBuilder>` on a draft (`apiKey`: a builder session key); resolves with its ready time, ms. */
  runBuilder(params: BenchParams): Promise<number>;
  /** Resolves once every page of the mounted builder in view is drawn. */
  builderSettled(): Promise<void>;
  /** The mounted builder's field and page boxes. */
  builderBoxes(fieldId: string): { field: Box; page: Box };
  /** Starts recording `requestAnimationFrame` timestamps (and marks `bench-drag` for a trace). */
  startFrames(): void;
  /** Stops recording; the intervals between consecutive animation frames, ms. */
  stopFrames(): number[];
}

declare global {
  interface Window {
    signetBench: BenchApi;
  }
}
