/**
 * The zoom levels the controls step through; 1 fits the page width.
 * @example <ZoomControls steps={ZOOM_STEPS.slice(1)} … />
 */
export const ZOOM_STEPS: readonly number[] = [0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3];

/**
 * The next step above `zoom` (or the highest step).
 * @example zoomIn(1) // 1.25
 * @example zoomIn(1.1) // 1.25
 */
export function zoomIn(zoom: number, steps: readonly number[] = ZOOM_STEPS): number {
  return steps.find((step) => step > zoom + 1e-6) ?? steps[steps.length - 1] ?? zoom;
}

/**
 * The next step below `zoom` (or the lowest step).
 * @example zoomOut(1) // 0.75
 */
export function zoomOut(zoom: number, steps: readonly number[] = ZOOM_STEPS): number {
  return steps.findLast((step) => step < zoom - 1e-6) ?? steps[0] ?? zoom;
}
