import { useEffect, useRef, useState } from 'react';
import { DataUrlImage } from '../signature/DataUrlImage.js';
import { DrawPad, type DrawPadHandle } from '../signature/DrawPad.js';
import { renderTypedSignature } from '../signature/render-typed.js';
import type { SignatureDialogLabels } from '../signature/SignatureDialog.js';
import { trimInk } from '../signature/trim-ink.js';
import { TypedSignature } from '../signature/TypedSignature.js';

export interface InlineSignatureProps {
  kind: 'signature' | 'initials';
  /** The field's signature, once applied. */
  image: string | undefined;
  initialName: string;
  labels: SignatureDialogLabels;
  /** The button that brings the pad back over an applied signature. */
  changeLabel: string;
  describedBy: string | undefined;
  /** Receives `data:image/png;base64,…`, trimmed to its ink, as the signature dialog's Apply does. */
  onApply(pngDataUrl: string): void;
}

/**
 * The signature dialog's pad and typed signature without the dialog, for the phone's step panel: Draw or Type, then
 * Apply. An applied signature is shown with a button to change it.
 * @example
 * <InlineSignature kind="signature" image={value?.imageData} initialName="Ada Lovelace" labels={labels}
 *   changeLabel="Change" describedBy={undefined} onApply={(png) => change(field.id, { type: 'signature', imageData: png })} />
 */
export function InlineSignature({ kind, image, initialName, labels, changeLabel, describedBy, onApply }: InlineSignatureProps) {
  const [editing, setEditing] = useState(!image);
  const [mode, setMode] = useState<'draw' | 'type'>('draw');
  const [strokes, setStrokes] = useState(0);
  const [typed, setTyped] = useState(initialName);
  const [busy, setBusy] = useState(false);
  const pad = useRef<DrawPadHandle>(null);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  if (image && !editing) {
    return (
      <div className="signet-steps-signed">
        <DataUrlImage src={image} className="signet-steps-signed-image" />
        <button type="button" className="signet-button signet-button--secondary" aria-describedby={describedBy} onClick={() => setEditing(true)}>
          {changeLabel}
        </button>
      </div>
    );
  }

  const ready = mode === 'draw' ? strokes > 0 : typed.trim() !== '';
  const apply = async () => {
    if (!ready || busy) return;
    setBusy(true);
    try {
      const ink = mode === 'draw' ? pad.current?.renderInk() : await renderTypedSignature(typed.trim());
      const png = ink ? trimInk(ink) : null;
      if (alive.current && png) {
        setEditing(false);
        onApply(png);
      }
    } finally {
      if (alive.current) setBusy(false);
    }
  };

  return (
    <form
      className="signet-steps-sign"
      noValidate
      aria-busy={busy || undefined}
      onSubmit={(event) => {
        event.preventDefault();
        void apply();
      }}
    >
      <div className="signet-sig-tabs signet-steps-modes" role="group" aria-label={labels.title} aria-describedby={describedBy}>
        {(['draw', 'type'] as const).map((name) => (
          <button key={name} type="button" className="signet-sig-tab" aria-pressed={mode === name} onClick={() => setMode(name)}>
            {labels[name]}
          </button>
        ))}
      </div>
      {/* Both stay mounted, so that switching keeps what was drawn or typed. */}
      <div hidden={mode !== 'draw'}>
        <DrawPad ref={pad} kind={kind} labels={labels} onStrokeCountChange={setStrokes} />
      </div>
      <div hidden={mode !== 'type'}>
        <TypedSignature kind={kind} value={typed} onChange={setTyped} labels={labels} />
      </div>
      <button type="submit" className="signet-button signet-button--primary signet-steps-apply" disabled={!ready || busy}>
        {labels.apply}
      </button>
    </form>
  );
}
