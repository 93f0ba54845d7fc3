import type { FieldDefinition } from '@signet/contract';
import { memo, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { flushSync } from 'react-dom';
import { fieldBox } from '../fields/field-geometry.js';
import { dragHandle, HANDLES, type FieldRect, type Handle, type PageSize } from './field-edits.js';
import type { Guide } from './snap.js';

/** Moves a dragged rectangle onto what it should snap to (`threshold` in points), with the guides it then lies on. */
export type Snapper = (fieldId: string, rect: FieldRect, handle: Handle | 'move', threshold: number) => { rect: FieldRect; guides: Guide[] };

/**
 * How a field is selected: `only` it (a click, Enter); `toggle` it in the selection (Shift or Ctrl/Cmd with a click,
 * Shift+Enter); `press` (a pointer pressed on it) and `focus` keep a selection it is in, `focus` also one of several.
 */
export type SelectMode = 'only' | 'toggle' | 'press' | 'focus';

export interface FieldBoxProps {
  field: FieldDefinition;
  /** The page's size in points (a handle's drag keeps the minimum size in points). */
  size: PageSize;
  selected: boolean;
  /** Its resize handles are shown (it is the only field selected). */
  handles: boolean;
  readOnly: boolean;
  /** What the field is called to assistive technology, and shown on it. */
  name: string;
  text: string;
  /** The colour of its signer. */
  colour: string;
  /** The ids of the texts that describe it (the keyboard's help). */
  helpId: string;
  onSelect(fieldId: string, mode: SelectMode): void;
  /** A drag ended: the field's new rectangle. */
  onRect(fieldId: string, rect: FieldRect): void;
  /** While it is dragged (moved, not resized): where it is now; `null` once the drag ends (the selection follows). */
  onDrag?(fieldId: string, rect: FieldRect | null): void;
  onKeyDown(field: FieldDefinition, event: KeyboardEvent<HTMLButtonElement>): void;
  /** Snapping while dragging (none: the field goes where the pointer puts it). Alt held places freely. */
  snap?: Snapper;
}

interface Drag {
  pointerId: number;
  handle: Handle | 'move';
  startX: number;
  startY: number;
  /** The page's box in CSS pixels at the drag's start. */
  page: DOMRect;
  start: FieldRect;
}

/** A pointer must travel this far (CSS pixels) before a press becomes a drag, so a click only selects. */
const DRAG_THRESHOLD = 3;
/** How near (CSS pixels, at any zoom) an edge snaps to a line. */
const SNAP_PIXELS = 6;
/** How near (CSS pixels) a finger or pen press must be to a handle to take it: a 24 px target. */
const HANDLE_REACH = 12;
/** A finger or pen held still this long on a field adds it to the selection or takes it out: touch has no Shift. */
const LONG_PRESS_MS = 500;
/** How long after a long press's release a click is taken as its tail. */
const LONG_PRESS_CLICK_MS = 600;

/**
 * The shown handle nearest to a touch or pen press on the box, within reach (less on a small box, so that its middle
 * still moves it). A finger is wider than a handle, and Chrome may give the press to the field's button beside it.
 */
function handleNear(box: DOMRect, x: number, y: number): Handle | null {
  const [reachX, reachY] = [Math.min(HANDLE_REACH, box.width / 3), Math.min(HANDLE_REACH, box.height / 3)];
  let best: { handle: Handle; distance: number } | null = null;
  for (const handle of HANDLES) {
    const dx = Math.abs(x - (handle.includes('w') ? box.left : handle.includes('e') ? box.right : (box.left + box.right) / 2));
    const dy = Math.abs(y - (handle.includes('n') ? box.top : handle.includes('s') ? box.bottom : (box.top + box.bottom) / 2));
    const distance = Math.hypot(dx, dy);
    if (dx <= reachX && dy <= reachY && (!best || distance < best.distance)) best = { handle, distance };
  }
  return best?.handle ?? null;
}

/**
 * A placed field on its page: a button that selects it (and takes the keyboard's moves), drawn at its fractions
 * (`fieldBox`, as the viewer draws fields), dragged to move, with eight resize handles while it is the only one selected. A drag moves
 * the box locally and reports the new rectangle once, when the pointer is released.
 */
export const FieldBox = memo(function FieldBox(props: FieldBoxProps) {
  const { field, selected, readOnly } = props;
  const [live, setLive] = useState<FieldRect | null>(null);
  const [guides, setGuides] = useState<Guide[]>([]);
  const drag = useRef<Drag | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  // A drag's release may be followed by a click: it is not a selection.
  const dragged = useRef(false);
  // A finger's press: its long-press timer, and whether it has been selected for yet (at the drag's start).
  const touch = useRef<{ timer: ReturnType<typeof setTimeout>; selected: boolean } | null>(null);
  // Until when a click is the tail of a long press (a browser may still send one), not a selection.
  const longPressClick = useRef(0);
  const endTouch = () => {
    if (touch.current) clearTimeout(touch.current.timer);
    touch.current = null;
  };
  useEffect(() => () => endTouch(), []);

  const begin = (event: ReactPointerEvent<HTMLElement>, pressed: Drag['handle']) => {
    if (event.button !== 0 || readOnly) return;
    event.stopPropagation();
    event.preventDefault();
    // Shift or Ctrl/Cmd: the click that follows toggles the field in the selection; no drag.
    if (event.shiftKey || event.ctrlKey || event.metaKey) return;
    const page = event.currentTarget.closest('.signet-page')?.getBoundingClientRect();
    if (!page) return;
    const near = pressed === 'move' && props.handles && event.pointerType !== 'mouse';
    const handle = (near && handleNear(event.currentTarget.getBoundingClientRect(), event.clientX, event.clientY)) || pressed;
    endTouch();
    if (event.pointerType !== 'mouse' && handle === 'move') {
      // A finger's press selects and focuses when it becomes a drag (or on release); held still, it toggles the
      // field in the selection instead, and focus, which would select it, stays where it was.
      const pointerId = event.pointerId;
      const timer = setTimeout(() => {
        if (drag.current?.pointerId !== pointerId) return;
        drag.current = null;
        touch.current = null;
        longPressClick.current = Number.POSITIVE_INFINITY;
        props.onSelect(field.id, 'toggle');
      }, LONG_PRESS_MS);
      touch.current = { timer, selected: false };
    } else {
      props.onSelect(field.id, 'press');
      button.current?.focus({ preventScroll: true });
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointerId: event.pointerId, handle, startX: event.clientX, startY: event.clientY, page, start: { x: field.x, y: field.y, width: field.width, height: field.height } };
  };
  const rectAt = (event: ReactPointerEvent<HTMLElement>): FieldRect | null => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return null;
    const moved = Math.hypot(event.clientX - current.startX, event.clientY - current.startY);
    if (moved < DRAG_THRESHOLD && !live) return null;
    const dx = (event.clientX - current.startX) / current.page.width;
    const dy = (event.clientY - current.startY) / current.page.height;
    const { start } = current;
    const rect =
      current.handle === 'move'
        ? { ...start, x: Math.min(Math.max(start.x + dx, 0), 1 - start.width), y: Math.min(Math.max(start.y + dy, 0), 1 - start.height) }
        : dragHandle(start, current.handle, dx, dy, props.size);
    if (!props.snap || event.altKey) {
      setGuides((shown) => (shown.length ? [] : shown));
      return rect;
    }
    const snapped = props.snap(field.id, rect, current.handle, (SNAP_PIXELS * props.size.width) / current.page.width);
    setGuides((shown) => (sameGuides(shown, snapped.guides) ? shown : snapped.guides));
    return snapped.rect;
  };
  // A move is drawn in the frame it arrives for: the browser hands pointer moves over at the start of a frame, and
  // React would render a continuous event's update in a task of its own after that frame (docs/decisions.md,
  // "Builder: drags on the compositor").
  const move = (event: ReactPointerEvent<HTMLElement>) => flushSync(() => moveNow(event));
  const moveNow = (event: ReactPointerEvent<HTMLElement>) => {
    const rect = rectAt(event);
    if (!rect) return;
    if (touch.current && !touch.current.selected) {
      clearTimeout(touch.current.timer);
      touch.current.selected = true;
      props.onSelect(field.id, 'press');
      button.current?.focus({ preventScroll: true });
    }
    setLive(rect);
    if (drag.current?.handle === 'move') props.onDrag?.(field.id, rect);
  };
  const end = (event: ReactPointerEvent<HTMLElement>) => {
    const rect = rectAt(event);
    const moving = drag.current?.handle === 'move';
    if (longPressClick.current === Number.POSITIVE_INFINITY) longPressClick.current = performance.now() + LONG_PRESS_CLICK_MS;
    endTouch();
    drag.current = null;
    setLive(null);
    setGuides([]);
    if (moving) props.onDrag?.(field.id, null);
    if (!rect) {
      // A press without a drag is a click (which pointer capture sends to the box, not its button): this field alone.
      if (moving && !event.shiftKey && !event.ctrlKey && !event.metaKey) {
        props.onSelect(field.id, 'only');
        button.current?.focus({ preventScroll: true });
      }
      return;
    }
    dragged.current = true;
    setTimeout(() => (dragged.current = false), 0);
    props.onRect(field.id, rect);
  };
  const cancel = () => {
    endTouch();
    if (drag.current?.handle === 'move') props.onDrag?.(field.id, null);
    drag.current = null;
    setLive(null);
    setGuides([]);
  };

  // A move is drawn by the compositor alone: the box stays where it was laid out, in a layer of its own, shifted by a
  // transform (docs/decisions.md, "Builder: drags on the compositor"); a resize lays the box out anew.
  const page = drag.current?.page;
  const box =
    live && page && drag.current?.handle === 'move'
      ? { ...fieldBox(field), transform: `translate(${(live.x - field.x) * page.width}px, ${(live.y - field.y) * page.height}px)`, willChange: 'transform' }
      : fieldBox(live ?? field);
  return (
    <>
    <div
      className="signet-builder-field"
      data-field-id={field.id}
      data-selected={selected ? '' : undefined}
      data-required={field.required ? '' : undefined}
      style={{ ...box, ['--_signer' as string]: props.colour }}
      onPointerDown={(event) => begin(event, 'move')}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={cancel}
    >
      <button
        ref={button}
        type="button"
        aria-label={props.name}
        aria-pressed={selected}
        aria-describedby={props.helpId}
        onClick={(event) => {
          if (performance.now() < longPressClick.current) return;
          if (dragged.current) dragged.current = false;
          else props.onSelect(field.id, event.shiftKey || event.ctrlKey || event.metaKey ? 'toggle' : 'only');
        }}
        // The keyboard selects what it reaches: Tab to a field, and the properties panel shows it.
        onFocus={() => props.onSelect(field.id, 'focus')}
        onKeyDown={(event) => {
          // Shift+Enter toggles here, not by the click Enter makes: Firefox's carries no modifier keys.
          if (event.key === 'Enter' && (event.shiftKey || event.ctrlKey || event.metaKey) && !event.altKey) {
            event.preventDefault();
            props.onSelect(field.id, 'toggle');
            return;
          }
          props.onKeyDown(field, event);
        }}
      >
        <span className="signet-builder-field-text">{props.text}</span>
      </button>
      {props.handles && !readOnly
        ? HANDLES.map((handle) => (
            <span
              key={handle}
              className="signet-handle"
              data-handle={handle}
              aria-hidden="true"
              onPointerDown={(event) => begin(event, handle)}
              onPointerMove={move}
              onPointerUp={end}
              onPointerCancel={cancel}
            />
          ))
        : null}
    </div>
    {guides.map((guide) => (
      <span
        key={guide.axis}
        className="signet-snap-guide"
        data-axis={guide.axis}
        data-field={guide.field ? '' : undefined}
        aria-hidden="true"
        style={guide.axis === 'x' ? { left: `${(guide.at / props.size.width) * 100}%` } : { top: `${(guide.at / props.size.height) * 100}%` }}
      />
    ))}
    </>
  );
});

const sameGuides = (a: readonly Guide[], b: readonly Guide[]) =>
  a.length === b.length && a.every((guide, index) => guide.axis === b[index]!.axis && guide.at === b[index]!.at && guide.field === b[index]!.field);
