/**
 * The phone's step panel: a sheet at the bottom of the viewer, in its flow (the pages above it shrink, so the field
 * shown above it is never under it). Controls at thumb size (44 px) with 16 px text, which keeps iOS from zooming in.
 * Every rule under `.signet-viewer`, on the shell's `--_*` colours. Part of `viewerCss`.
 * @example <style>{viewerCss}</style> // … + stepPanelCss
 */
export const stepPanelCss = /* css */ `
.signet-viewer .signet-steps {
  flex: none; display: flex; flex-direction: column; gap: 10px; max-height: 78%; overflow-y: auto;
  padding: 10px 14px calc(12px + env(safe-area-inset-bottom, 0px));
  background: var(--_surface); border-top: 1px solid var(--_border); box-shadow: 0 -6px 16px rgb(16 24 40 / 0.1);
}
/* A ring that lets the PDF's printed label right above the field show through. */
.signet-viewer .signet-field[data-signet-current] { border-radius: 3px; box-shadow: 0 0 0 4px color-mix(in srgb, var(--_accent) 35%, transparent); }
.signet-viewer .signet-steps-head, .signet-viewer .signet-steps-nav { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
.signet-viewer .signet-steps-count { color: var(--_muted); font-size: 14px; font-weight: 500; }
.signet-viewer .signet-steps-done { min-height: 44px; }
.signet-viewer .signet-steps-body { display: flex; flex-direction: column; gap: 8px; }
.signet-viewer .signet-steps-title { margin: 0; font-size: 17px; font-weight: 650; line-height: 1.3; }
.signet-viewer .signet-steps-hint { margin: -4px 0 0; color: var(--_muted); font-size: 14px; }
.signet-viewer .signet-steps-hint[data-invalid] { color: var(--_danger); font-weight: 600; }
.signet-viewer .signet-steps-body :is(input:not([type="checkbox"], [type="radio"], [type="file"]), select, textarea) {
  width: 100%; min-height: 48px; height: auto; padding: 10px 12px; font-size: 16px; line-height: 1.3;
  border: 1.5px solid var(--_accent); border-radius: 6px; background: var(--_surface); color: var(--_text);
}
.signet-viewer .signet-steps-body .signet-sig-input { border-color: var(--_muted); }
.signet-viewer .signet-steps-check { display: flex; align-items: center; min-height: 44px; cursor: pointer; }
.signet-viewer .signet-steps-body .signet-checkbox { width: 28px; height: 28px; }
.signet-viewer .signet-steps-body .signet-sig-pad { height: 140px; }
.signet-viewer .signet-steps-body .signet-sig-typed-text { font-size: 44px; }
.signet-viewer .signet-steps-sign { display: flex; flex-direction: column; gap: 8px; margin: 0; }
.signet-viewer .signet-steps-modes .signet-sig-tab[aria-pressed="true"] {
  background: var(--_surface); color: var(--_text); box-shadow: 0 1px 3px rgb(16 24 40 / 0.14), inset 0 -2px 0 var(--_accent);
}
.signet-viewer .signet-steps-apply { align-self: flex-end; min-height: 44px; min-width: 120px; }
.signet-viewer .signet-steps-signed { display: flex; align-items: center; justify-content: space-between; gap: 12px; }
.signet-viewer .signet-steps-signed-image {
  max-width: 70%; max-height: 72px; padding: 4px; border-bottom: 1.5px solid var(--_muted); object-fit: contain;
}
.signet-viewer .signet-steps-nav .signet-button { flex: 1 1 0; min-height: 48px; }
@media (forced-colors: active) {
  .signet-viewer .signet-steps { border-top: 2px solid CanvasText; }
  .signet-viewer .signet-field[data-signet-current] { outline: 2px solid Highlight; outline-offset: 1px; }
  .signet-viewer .signet-steps-modes .signet-sig-tab[aria-pressed="true"] { outline: 2px solid Highlight; }
}
`;
