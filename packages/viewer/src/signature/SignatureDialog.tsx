import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { DrawPad, type DrawPadHandle } from './DrawPad.js';
import { trapTab } from './focus-trap.js';
import { ImageUpload } from './ImageUpload.js';
import { renderTypedSignature } from './render-typed.js';
import { trimInk } from './trim-ink.js';
import { TypedSignature } from './TypedSignature.js';

/** The dialog's texts, translated by the caller. */
export interface SignatureDialogLabels {
  title: string;
  draw: string;
  type: string;
  upload: string;
  clear: string;
  undo: string;
  typePlaceholder: string;
  typeLabel: string;
  uploadHint: string;
  uploadButton: string;
  cancel: string;
  apply: string;
  drawHint: string;
  invalidImage: string;
}

export interface SignatureDialogProps {
  open: boolean;
  kind: 'signature' | 'initials';
  /** Shown in the title, e.g. "Signature of the customer". */
  fieldLabel: string;
  labels: SignatureDialogLabels;
  /** Prefill for the Type tab (e.g. the signer's name, or their initials for `kind="initials"`). */
  initialName?: string;
  onCancel(): void;
  /** Receives `data:image/png;base64,…`, trimmed to its ink and within the server's size limits. */
  onApply(pngDataUrl: string): void;
}

type Tab = 'draw' | 'type' | 'upload';
const TABS: readonly Tab[] = ['draw', 'type', 'upload'];

/**
 * A modal dialog in which the signer draws, types or uploads a signature (or initials) for one field. It renders
 * where it is mounted (inside the viewer's root, so that scoped styles apply), traps the focus, closes on Escape
 * (`onCancel`) and hands `onApply` a trimmed PNG. Content is reset each time it opens; the caller restores the
 * focus to its trigger when `open` turns false.
 * @example
 * <SignatureDialog
 *   open={editing === field.id}
 *   kind="signature"
 *   fieldLabel={field.label}
 *   labels={t.signatureDialog}
 *   initialName={signer.name}
 *   onCancel={() => setEditing(null)}
 *   onApply={(png) => { setValue(field.id, { type: 'image', imageData: png }); setEditing(null); }}
 * />
 */
export function SignatureDialog(props: SignatureDialogProps) {
  // Unmounted while closed: the pad, observers and pending work of the last opening are all released.
  return props.open ? <OpenSignatureDialog {...props} /> : null;
}

function OpenSignatureDialog({ kind, fieldLabel, labels, initialName = '', onCancel, onApply }: SignatureDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());
  const padRef = useRef<DrawPadHandle>(null);
  const alive = useRef(true);
  const id = useId();
  const [tab, setTab] = useState<Tab>('draw');
  const [strokeCount, setStrokeCount] = useState(0);
  const [typed, setTyped] = useState(initialName);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    alive.current = true;
    if (!dialog.open) dialog.showModal();
    // The selected tab is the first useful control: arrows switch between drawing, typing and uploading.
    tabRefs.current.get('draw')?.focus();
    return () => {
      alive.current = false;
      if (dialog.open) dialog.close();
    };
  }, []);

  const ready = tab === 'draw' ? strokeCount > 0 : tab === 'type' ? typed.trim() !== '' : uploaded !== null;

  const inkOf = async (source: Tab): Promise<string | null> => {
    if (source === 'upload') return uploaded;
    if (source === 'type') return trimInk(await renderTypedSignature(typed.trim()));
    const ink = padRef.current?.renderInk();
    return ink ? trimInk(ink) : null;
  };

  const apply = async () => {
    if (!ready || busy) return;
    setBusy(true);
    try {
      const png = await inkOf(tab);
      if (alive.current && png) onApply(png);
    } finally {
      if (alive.current) setBusy(false);
    }
  };

  const select = (next: Tab) => {
    setTab(next);
    tabRefs.current.get(next)?.focus();
  };

  const onTabKeyDown = (event: KeyboardEvent) => {
    const next = tabForKey(event.key, tab);
    if (!next) return;
    event.preventDefault();
    select(next);
  };

  const onDialogKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape' && !event.nativeEvent.isComposing) {
      // Handled here rather than left to the dialog's own cancel, which Chromium does not let a page refuse twice
      // in a row without user activation: the caller decides whether the dialog closes.
      event.preventDefault();
      onCancel();
      return;
    }
    trapTab(event.nativeEvent, event.currentTarget);
  };

  return (
    <dialog
      ref={dialogRef}
      className="signet-sig-dialog"
      data-kind={kind}
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-field`}
      aria-busy={busy || undefined}
      onKeyDown={onDialogKeyDown}
      onCancel={(event) => {
        // Other close requests (a phone's Back gesture): the caller decides, as for Escape.
        event.preventDefault();
        onCancel();
      }}
    >
      <form
        className="signet-sig-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void apply();
        }}
      >
        {/* The dialog is named by the title alone ("Add your initials"); the field's label describes it. */}
        <h2 className="signet-sig-title">
          <span id={`${id}-title`}>{labels.title}</span>{' '}
          <span id={`${id}-field`} className="signet-sig-field">
            {fieldLabel}
          </span>
        </h2>
        <div role="tablist" aria-labelledby={`${id}-title`} className="signet-sig-tabs" onKeyDown={onTabKeyDown}>
          {TABS.map((name) => (
            <button
              key={name}
              ref={(element) => {
                if (element) tabRefs.current.set(name, element);
                else tabRefs.current.delete(name);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${name}`}
              className="signet-sig-tab"
              aria-selected={tab === name}
              aria-controls={`${id}-panel-${name}`}
              tabIndex={tab === name ? 0 : -1}
              onClick={() => select(name)}
            >
              {labels[name]}
            </button>
          ))}
        </div>
        {/* Panels stay mounted while hidden, so that switching tabs keeps what was drawn, typed or uploaded. */}
        <div role="tabpanel" {...panelProps(id, 'draw', tab)}>
          <DrawPad ref={padRef} kind={kind} labels={labels} onStrokeCountChange={setStrokeCount} />
        </div>
        <div role="tabpanel" {...panelProps(id, 'type', tab)}>
          <TypedSignature kind={kind} value={typed} onChange={setTyped} labels={labels} />
        </div>
        <div role="tabpanel" {...panelProps(id, 'upload', tab)}>
          <ImageUpload labels={labels} onChange={setUploaded} />
        </div>
        <div className="signet-sig-actions">
          <button type="button" className="signet-sig-button" onClick={onCancel}>
            {labels.cancel}
          </button>
          <button type="submit" className="signet-sig-button signet-sig-button--primary" disabled={!ready || busy}>
            {labels.apply}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** The tab that an arrow key, Home or End moves to from `current` (arrows wrap around), per the ARIA tabs pattern. */
function tabForKey(key: string, current: Tab): Tab | null {
  const at = TABS.indexOf(current);
  switch (key) {
    case 'ArrowRight':
      return TABS[(at + 1) % TABS.length] ?? null;
    case 'ArrowLeft':
      return TABS[(at + TABS.length - 1) % TABS.length] ?? null;
    case 'Home':
      return TABS[0] ?? null;
    case 'End':
      return TABS[TABS.length - 1] ?? null;
    default:
      return null;
  }
}

function panelProps(id: string, name: Tab, selected: Tab) {
  return {
    id: `${id}-panel-${name}`,
    className: 'signet-sig-panel',
    'aria-labelledby': `${id}-tab-${name}`,
    hidden: name !== selected,
  };
}
