import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import SignaturePad from 'signature_pad';
import { inkScale } from './ink.js';
import { watchDevicePixelRatio } from '../watch-device-pixel-ratio.js';
import { PEN_OPTIONS, fitPadCanvas, renderStrokes } from './pad-canvas.js';

/** What the dialog asks of the pad when the signer applies. */
export interface DrawPadHandle {
  /** The strokes redrawn at print resolution (at least 2 device pixels per CSS pixel), or `null` when empty. */
  renderInk(): HTMLCanvasElement | null;
}

export interface DrawPadProps {
  kind: 'signature' | 'initials';
  labels: { clear: string; undo: string; drawHint: string };
  /** Called with the number of strokes whenever it changes, so that the dialog can enable Apply. */
  onStrokeCountChange(count: number): void;
}

/**
 * A signature_pad canvas with a baseline, Undo and Clear. Pointer events make it work with mouse, pen and touch;
 * its backing store follows its size and the device pixel ratio without losing strokes.
 * @example
 * const pad = useRef<DrawPadHandle>(null);
 * <DrawPad ref={pad} kind="signature" labels={labels} onStrokeCountChange={setStrokes} />
 * const ink = pad.current?.renderInk();
 * const png = ink ? trimInk(ink) : null;
 */
// forwardRef rather than a `ref` prop: React 18 passes no `ref` to function components.
export const DrawPad = forwardRef<DrawPadHandle, DrawPadProps>(function DrawPad({ kind, labels, onStrokeCountChange }, ref) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const [strokeCount, setStrokeCount] = useState(0);

  useEffect(() => {
    const canvas = canvasRef.current;
    const view = canvas?.ownerDocument.defaultView;
    if (!canvas || !view) return;
    const pad = new SignaturePad(canvas, PEN_OPTIONS);
    padRef.current = pad;
    const fit = () => fitPadCanvas(canvas, pad);
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    const stopWatchingRatio = watchDevicePixelRatio(view, fit);
    const counted = () => setStrokeCount(pad.toData().length);
    pad.addEventListener('endStroke', counted);
    return () => {
      pad.removeEventListener('endStroke', counted);
      stopWatchingRatio();
      observer.disconnect();
      pad.off();
      padRef.current = null;
    };
  }, []);

  useEffect(() => onStrokeCountChange(strokeCount), [strokeCount, onStrokeCountChange]);

  useImperativeHandle(
    ref,
    () => ({
      renderInk() {
        const canvas = canvasRef.current;
        const pad = padRef.current;
        if (!canvas || !pad || pad.isEmpty()) return null;
        const { width, height } = canvas.getBoundingClientRect();
        return renderStrokes(pad.toData(), width, height, inkScale());
      },
    }),
    [],
  );

  const empty = strokeCount === 0;

  const undo = () => {
    const pad = padRef.current;
    if (!pad || empty) return;
    const strokes = pad.toData().slice(0, -1);
    pad.fromData(strokes);
    setStrokeCount(strokes.length);
  };

  const clear = () => {
    padRef.current?.clear();
    setStrokeCount(0);
  };

  return (
    <div className="signet-sig-draw">
      <div className="signet-sig-pad" data-kind={kind}>
        <canvas ref={canvasRef} className="signet-sig-canvas" />
        <span className="signet-sig-baseline" aria-hidden="true">
          ×
        </span>
      </div>
      <div className="signet-sig-pad-footer">
        <p className="signet-sig-hint">
          {labels.drawHint}
        </p>
        <div className="signet-sig-pad-actions">
          {/* aria-disabled rather than disabled: the last Undo must not drop the keyboard focus out of the dialog. */}
          <button type="button" className="signet-sig-button signet-sig-button--quiet" onClick={undo} aria-disabled={empty}>
            {labels.undo}
          </button>
          <button type="button" className="signet-sig-button signet-sig-button--quiet" onClick={clear} aria-disabled={empty}>
            {labels.clear}
          </button>
        </div>
      </div>
    </div>
  );
});
