import { useTranslator } from '../i18n/LocaleContext.js';
import { format } from '../i18n/messages.js';
import { ZOOM_STEPS, zoomIn, zoomOut } from './zoom.js';

export interface ZoomControlsProps {
  /** Current zoom; 1 fits the page width. */
  zoom: number;
  onZoomChange: (zoom: number) => void;
  /**
   * Accessible names (and tooltips) of the three buttons, and the zoom shown between them (`{percent}` is the
   * whole percentage, written as the viewer's locale writes numbers), in the viewer's language.
   */
  labels: { zoomIn: string; zoomOut: string; fitWidth: string; value: string };
  steps?: readonly number[];
  className?: string;
}

/**
 * Zoom out / fit width / zoom in, with the current zoom as a percentage of the fitted width between them.
 * @example <ZoomControls zoom={zoom} onZoomChange={setZoom} labels={{ zoomIn: 'Zoom in', zoomOut: 'Zoom out', fitWidth: 'Fit to width', value: '{percent}%' }} />
 */
export function ZoomControls({ zoom, onZoomChange, labels, steps = ZOOM_STEPS, className }: ZoomControlsProps) {
  const min = steps[0] ?? zoom;
  const max = steps[steps.length - 1] ?? zoom;
  // The viewer builds its locale's number format while the document's metadata is on its way (prepareFormatters).
  const percent = format(labels.value, { percent: useTranslator().number(Math.round(zoom * 100)) });
  return (
    <div className={className ? `signet-zoom ${className}` : 'signet-zoom'} role="group">
      <button type="button" className="signet-zoom-button" aria-label={labels.zoomOut} title={labels.zoomOut} disabled={zoom <= min} onClick={() => onZoomChange(zoomOut(zoom, steps))}>
        <Icon d="M5 10h10" />
      </button>
      <output className="signet-zoom-value">{percent}</output>
      <button type="button" className="signet-zoom-button" aria-label={labels.zoomIn} title={labels.zoomIn} disabled={zoom >= max} onClick={() => onZoomChange(zoomIn(zoom, steps))}>
        <Icon d="M5 10h10M10 5v10" />
      </button>
      <button type="button" className="signet-zoom-button" aria-label={labels.fitWidth} title={labels.fitWidth} aria-pressed={zoom === 1} onClick={() => onZoomChange(1)}>
        <Icon d="M3 10h14M6 7l-3 3 3 3M14 7l3 3-3 3" />
      </button>
    </div>
  );
}

function Icon({ d }: { d: string }) {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
