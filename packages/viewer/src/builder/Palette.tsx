import type { FieldType } from '@signet/contract';
import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { pageNumberOf } from './page-elements.js';
import type { BuilderMessages } from './messages.js';
import { typeName } from './messages.js';

/** Where a palette item was dropped: the page under the pointer and the point on it, in page fractions. */
export interface Drop {
  page: number;
  x: number;
  y: number;
}

export interface PaletteProps {
  types: readonly FieldType[];
  messages: BuilderMessages;
  disabled: boolean;
  /** The signers new fields may go to; the chosen one's id. */
  signers: ReadonlyArray<{ id: string; name: string; colour: string }>;
  signerId: string | undefined;
  onSignerChange(signerId: string): void;
  /** Enter, Space or a click: a field of `type` on the current page. */
  onPlace(type: FieldType): void;
  /** A drag from the palette ended over a page. */
  onDrop(type: FieldType, drop: Drop): void;
}

/** A glyph per field type, beside its name. */
export const TYPE_GLYPHS: Record<FieldType, string> = {
  text: 'Aa',
  signature: '✎',
  initials: 'AB',
  date: '31',
  checkbox: '✓',
  number: '#',
  email: '@',
  phone: '☎',
  textarea: '¶',
  select: '▾',
  radio: '◉',
  image: '▣',
};

const DRAG_THRESHOLD = 4;

/** The page under a point of the viewport, and the point on it in page fractions. */
function dropAt(clientX: number, clientY: number, root: Document | ShadowRoot): Drop | null {
  const page = root.elementFromPoint(clientX, clientY)?.closest<HTMLElement>('.signet-page');
  const number = page && pageNumberOf(page);
  if (!number) return null;
  const rect = page.getBoundingClientRect();
  return { page: number, x: (clientX - rect.left) / rect.width, y: (clientY - rect.top) / rect.height };
}

/**
 * The field types an author places: each a button that adds its field to the current page (keyboard and click), or
 * that is dragged onto a page with a pointer (the field is centred where it is dropped).
 */
export function Palette({ types, messages, disabled, signers, signerId, onSignerChange, onPlace, onDrop }: PaletteProps) {
  const drag = useRef<{ type: FieldType; pointerId: number; startX: number; startY: number; moved: boolean } | null>(null);
  const [ghost, setGhost] = useState<{ type: FieldType; x: number; y: number } | null>(null);
  const dragged = useRef(false);

  const down = (event: ReactPointerEvent<HTMLButtonElement>, type: FieldType) => {
    if (event.button !== 0 || disabled) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { type, pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, moved: false };
  };
  const move = (event: ReactPointerEvent<HTMLButtonElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    if (!current.moved && Math.hypot(event.clientX - current.startX, event.clientY - current.startY) < DRAG_THRESHOLD) return;
    current.moved = true;
    setGhost({ type: current.type, x: event.clientX, y: event.clientY });
  };
  const up = (event: ReactPointerEvent<HTMLButtonElement>) => {
    const current = drag.current;
    drag.current = null;
    setGhost(null);
    if (!current || !current.moved) return;
    // The click that follows this release (if the browser sends one) is not a placement.
    dragged.current = true;
    setTimeout(() => (dragged.current = false), 0);
    const drop = dropAt(event.clientX, event.clientY, event.currentTarget.getRootNode() as Document | ShadowRoot);
    if (drop) onDrop(current.type, drop);
  };

  return (
    <section className="signet-builder-side signet-builder-palette" aria-labelledby="signet-palette-heading">
      <h2 className="signet-builder-heading" id="signet-palette-heading">
        {messages.palette}
      </h2>
      {signers.length > 0 ? (
        <label className="signet-builder-label">
          {messages.placeFor}
          <select value={signerId} onChange={(event) => onSignerChange(event.target.value)} disabled={disabled}>
            {signers.map((signer) => (
              <option key={signer.id} value={signer.id}>
                {signer.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <ul className="signet-palette-list">
        {types.map((type) => (
          <li key={type}>
            <button
              type="button"
              className="signet-palette-item"
              data-field-type={type}
              disabled={disabled}
              onPointerDown={(event) => down(event, type)}
              onPointerMove={move}
              onPointerUp={up}
              onPointerCancel={() => {
                drag.current = null;
                setGhost(null);
              }}
              onClick={() => {
                if (dragged.current) dragged.current = false;
                else onPlace(type);
              }}
            >
              <span className="signet-palette-icon" aria-hidden="true">
                {TYPE_GLYPHS[type]}
              </span>
              {typeName(messages, type)}
            </button>
          </li>
        ))}
      </ul>
      <p className="signet-builder-hint">{messages.paletteHint}</p>
      {ghost ? (
        <div className="signet-drag-ghost" style={{ left: ghost.x, top: ghost.y }} aria-hidden="true">
          {typeName(messages, ghost.type)}
        </div>
      ) : null}
    </section>
  );
}
