import type { FieldDefinition } from '@signet/contract';
import { memo, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { fieldBox } from '../fields/field-geometry.js';
import { dragHandle, HANDLES, type FieldRect, type Handle, type PageSize } from './field-edits.js';
import type { Guide } from './snap.js';

/** Moves a dragged rectangle onto what it should snap to (`threshold` in points), with the guides it then lies on. */
export type Snapper = (fieldId: string, rect: FieldRect, handle: Handle | 'move', threshold: number) => { rect: FieldRect; guides: Guide[] };

export interface FieldBoxProps {
  field: FieldDefinition;
  /** The page's size in points (a handle's drag keeps the minimum size in points). */
  size: PageSize;
  selected: boolean;
  readOnly: boolean;
  /** What the field is called to assistive technology, and shown on it. */
  name: string;
  text: string;
  /** The colour of its signer. */
  colour: string;
  helpId: string;
  onSelect(fieldId: string): void;
  /** A drag ended: the field's new rectangle. */
  onRect(fieldId: string, rect: FieldRect): void;
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

/**
 * A placed field on its page: a button that selects it (and takes the keyboard's moves), drawn at its fractions
 * (`fieldBox`, as the viewer draws fields), dragged to move, with eight resize handles while selected. A drag moves
 * the box locally and reports the new rectangle once, when the pointer is released.
 */
export const FieldBox = memo(function FieldBox(props: FieldBoxProps) {
  const { field, selected, readOnly } = props;
  const [live, setLive] = useState<FieldRect | null>(null);
  const [guides, setGuides] = useState<Guide[]>([]);
  const drag = useRef<Drag | null>(null);
  const button = useRef<HTMLButtonElement>(null);

  const begin = (event: ReactPointerEvent<HTMLElement>, handle: Drag['handle']) => {
    if (event.button !== 0 || readOnly) return;
    event.stopPropagation();
    event.preventDefault();
    const page = event.currentTarget.closest('.signet-page')?.getBoundingClientRect();
    if (!page) return;
    props.onSelect(field.id);
    button.current?.focus({ preventScroll: true });
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
  const move = (event: ReactPointerEvent<HTMLElement>) => {
    const rect = rectAt(event);
    if (rect) setLive(rect);
  };
  const end = (event: ReactPointerEvent<HTMLElement>) => {
    const rect = rectAt(event);
    drag.current = null;
    setLive(null);
    setGuides([]);
    if (rect) props.onRect(field.id, rect);
  };
  const cancel = () => {
    drag.current = null;
    setLive(null);
    setGuides([]);
  };

  const shown = live ?? field;
  return (
    <>
    <div
      className="signet-builder-field"
      data-field-id={field.id}
      data-selected={selected ? '' : undefined}
      data-required={field.required ? '' : undefined}
      style={{ ...fieldBox(shown), ['--_signer' as string]: props.colour }}
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
        onClick={() => props.onSelect(field.id)}
        // The keyboard selects what it reaches: Tab to a field, and the properties panel shows it.
        onFocus={() => props.onSelect(field.id)}
        onKeyDown={(event) => props.onKeyDown(field, event)}
      >
        <span className="signet-builder-field-text">{props.text}</span>
      </button>
      {selected && !readOnly
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
