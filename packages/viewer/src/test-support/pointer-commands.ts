import type { BrowserCommand, BrowserCommandContext } from 'vitest/node';

/**
 * A browser-test command (it runs in Vitest's Node process) that draws one stroke with real pointer input where there
 * is no DevTools protocol: the browser's own input pipeline makes the pointer events, trusted, as for a person.
 * WebKit gets W3C WebDriver actions through webdriverio; Firefox gets Playwright's mouse, and touch as the same W3C
 * actions over the WebDriver BiDi session Playwright drives it with. Coordinates are the top-level page's in both:
 * WebKitWebDriver's viewport-origin actions are, even while webdriverio's session is switched into the test frame.
 */

export type PointerKind = 'mouse' | 'pen' | 'touch';

/** A point in the top-level page's CSS pixels. */
export interface PagePoint {
  x: number;
  y: number;
}

/** signature_pad keeps at most one move every 16 ms: moves are a little further apart, as a hand's are. */
const MOVE_INTERVAL_MS = 20;

/** One W3C pointer action (WebDriver classic and BiDi share the format). */
type PointerAction =
  | { type: 'pointerMove'; x: number; y: number; origin: 'viewport'; duration: number }
  | { type: 'pointerDown' | 'pointerUp'; button: 0; pressure?: number }
  | { type: 'pause'; duration: number };

/**
 * The W3C action sequence of one stroke through `points`: move to the first, press, move paced, rest, release. The
 * release comes a move's interval after the last move, as a hand's does: WebKitGTK's driver otherwise delivers the
 * last move and the release in one go, and a page that shows something while the pointer rests (the builder's snap
 * guides) is never given a frame to show it in.
 */
function strokeActions(points: readonly PagePoint[], kind: PointerKind) {
  const [first, ...rest] = points;
  if (!first) throw new Error('A stroke needs at least one point');
  const move = ({ x, y }: PagePoint): PointerAction => ({ type: 'pointerMove', x: Math.round(x), y: Math.round(y), origin: 'viewport', duration: 0 });
  const actions: PointerAction[] = [move(first), { type: 'pointerDown', button: 0, ...(kind === 'pen' ? { pressure: 0.5 } : {}) }];
  for (const point of rest) actions.push({ type: 'pause', duration: MOVE_INTERVAL_MS }, move(point));
  actions.push({ type: 'pause', duration: MOVE_INTERVAL_MS }, { type: 'pointerUp', button: 0 });
  return { type: 'pointer' as const, id: `signet-${kind}`, parameters: { pointerType: kind }, actions };
}

/** The part of a WebdriverIO browser the command uses (its types are not among this package's). */
interface WebDriverActions {
  performActions(actions: ReturnType<typeof strokeActions>[]): Promise<void>;
  releaseActions(): Promise<void>;
  execute<T>(script: () => Promise<T>): Promise<T>;
}

/**
 * The stroke in two action sequences of the same pointer, with two of the page's frames between them: everything up
 * to the rest, then the release. On a loaded machine the rest's 20 ms can pass without a frame, and what the page
 * shows while the pointer rests (the builder's snap guides) would never be drawn.
 */
async function strokeWithWebDriver(browser: WebDriverActions, points: readonly PagePoint[], kind: PointerKind) {
  const stroke = strokeActions(points, kind);
  const release = { ...stroke, actions: stroke.actions.splice(-1) };
  try {
    await browser.performActions([stroke]);
    await browser.execute(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
    await browser.performActions([release]);
  } finally {
    await browser.releaseActions();
  }
}

/** What of Playwright's in-process server a page leads to: its WebDriver BiDi session, when it drives Firefox. */
interface PlaywrightInternals {
  _connection?: { toImpl?(object: unknown): { delegate?: { _session?: BidiSession } } | undefined };
}
interface BidiSession {
  sessionId: string;
  send(method: string, params: Record<string, unknown>): Promise<unknown>;
}

/**
 * The BiDi session Playwright drives this page's Firefox with. Playwright's touchscreen has only `tap`, a no-op over
 * BiDi, so touch strokes go to Firefox as the same W3C actions WebDriver takes, through Playwright's own session.
 */
function bidiSession(page: BrowserCommandContext['page']): BidiSession {
  const internals = page as unknown as PlaywrightInternals;
  const session = internals._connection?.toImpl?.(page)?.delegate?._session;
  if (!session) throw new Error("No WebDriver BiDi session behind this Playwright page (is it Firefox, in Playwright's process?)");
  return session;
}

async function strokeWithPlaywright(context: BrowserCommandContext, points: readonly PagePoint[], kind: PointerKind) {
  const { page } = context;
  if (kind !== 'mouse') {
    const session = bidiSession(page);
    try {
      await session.send('input.performActions', { context: session.sessionId, actions: [strokeActions(points, kind)] });
    } finally {
      await session.send('input.releaseActions', { context: session.sessionId });
    }
    return;
  }
  const [first, ...rest] = points;
  if (!first) throw new Error('A stroke needs at least one point');
  await page.mouse.move(first.x, first.y);
  await page.mouse.down();
  for (const point of rest) {
    await new Promise((resolve) => setTimeout(resolve, MOVE_INTERVAL_MS));
    await page.mouse.move(point.x, point.y);
  }
  await new Promise((resolve) => setTimeout(resolve, MOVE_INTERVAL_MS));
  await page.mouse.up();
}

/**
 * Draws one stroke through `points` (top-level page CSS pixels) with a mouse, pen or touch pointer.
 * @example
 * await commands.pointerStroke([{ x: 120, y: 300 }, { x: 180, y: 310 }], 'pen');
 */
const pointerStroke: BrowserCommand<[points: PagePoint[], kind: PointerKind]> = async (context, points, kind) => {
  if (context.provider.name === 'webdriverio') {
    return strokeWithWebDriver((context as unknown as { browser: WebDriverActions }).browser, points, kind);
  }
  if (context.provider.name === 'playwright') return strokeWithPlaywright(context, points, kind);
  throw new Error(`No pointer input for the ${context.provider.name} provider`);
};

/** WebDriver's key values for the modifiers a click may hold. */
const MODIFIER_KEYS = { Shift: '\uE008', Control: '\uE009' } as const;
export type ClickModifier = keyof typeof MODIFIER_KEYS;

/**
 * A mouse click at `point` (top-level page CSS pixels) while `modifier` is held, as one W3C action sequence of a key
 * source and a mouse: webdriverio's element click (what `userEvent.click` is in WebKit) takes no modifiers, and the
 * click arrives without them.
 * @example
 * await commands.clickWithModifier({ x: 300, y: 200 }, 'Shift');
 */
const clickWithModifier: BrowserCommand<[point: PagePoint, modifier: ClickModifier]> = async (context, point, modifier) => {
  if (context.provider.name !== 'webdriverio') throw new Error('clickWithModifier is for WebDriver; elsewhere userEvent.click takes modifiers');
  const browser = (context as unknown as { browser: { performActions(actions: unknown[]): Promise<void>; releaseActions(): Promise<void> } }).browser;
  const key = MODIFIER_KEYS[modifier];
  const pause = { type: 'pause', duration: 0 };
  try {
    await browser.performActions([
      { type: 'key', id: 'signet-keys', actions: [{ type: 'keyDown', value: key }, pause, pause, pause, { type: 'keyUp', value: key }] },
      {
        type: 'pointer',
        id: 'signet-click',
        parameters: { pointerType: 'mouse' },
        actions: [pause, { type: 'pointerMove', x: Math.round(point.x), y: Math.round(point.y), origin: 'viewport', duration: 0 }, { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }, pause],
      },
    ]);
  } finally {
    await browser.releaseActions();
  }
};

export const pointerCommands = { pointerStroke, clickWithModifier };
