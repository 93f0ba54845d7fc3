import { viewerCss } from '../styles.js';

/**
 * The builder's styles: the viewer's (its shell, buttons, status panels and page list, under `.signet-viewer`, which
 * the builder's root also is) and the builder's own under `.signet-builder`. Themable through the same
 * `--signet-*` custom properties.
 */
const ownCss = /* css */ `
.signet-builder { --_selected: var(--signet-accent, #2f5bea); min-height: 480px; }
.signet-builder .signet-builder-toolbar { gap: 8px; }
.signet-builder .signet-builder-toolbar .signet-title { flex: 1 1 auto; }
.signet-builder .signet-builder-save { font-size: 13px; color: var(--_muted); white-space: nowrap; }
.signet-builder .signet-builder-save[data-state="failed"] { color: var(--_danger); }
.signet-builder .signet-icon-button {
  display: inline-flex; align-items: center; justify-content: center; min-width: 34px; min-height: 34px; padding: 4px 10px;
  border: 1px solid var(--_border); border-radius: calc(var(--_radius) - 2px); background: var(--_surface); color: var(--_text);
  font: inherit; font-size: 14px; cursor: pointer;
}
.signet-builder .signet-icon-button:hover:not(:disabled) { border-color: var(--_accent); color: var(--_accent); }
.signet-builder .signet-icon-button:disabled { color: #9aa5b1; cursor: not-allowed; }
.signet-builder .signet-builder-toolbar .signet-button { min-height: 34px; padding: 4px 16px; }
.signet-builder .signet-builder-body {
  flex: 1 1 auto; min-height: 0; display: grid; grid-template-columns: 208px minmax(0, 1fr) 268px;
}
.signet-builder .signet-builder-side {
  min-height: 0; overflow: auto; padding: 14px 12px; background: var(--_surface);
  display: flex; flex-direction: column; gap: 12px;
}
.signet-builder .signet-builder-palette { border-inline-end: 1px solid var(--_border); }
.signet-builder .signet-builder-properties { border-inline-start: 1px solid var(--_border); }
.signet-builder .signet-builder-heading {
  margin: 0; font-size: 12px; font-weight: 650; letter-spacing: 0.04em; text-transform: uppercase; color: var(--_muted);
}
.signet-builder .signet-builder-hint { margin: 0; font-size: 12.5px; color: var(--_muted); line-height: 1.4; }
.signet-builder .signet-palette-list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.signet-builder .signet-palette-item {
  display: flex; align-items: center; gap: 10px; width: 100%; min-height: 36px; padding: 6px 10px;
  border: 1px solid var(--_border); border-radius: calc(var(--_radius) - 2px); background: var(--_surface);
  color: var(--_text); font: inherit; font-size: 14px; text-align: start; cursor: grab; touch-action: none; user-select: none;
}
.signet-builder .signet-palette-item:hover { border-color: var(--_accent); background: #f5f7ff; }
.signet-builder .signet-palette-item[aria-pressed="true"] { border-color: var(--_accent); background: #eef2ff; box-shadow: inset 3px 0 0 var(--_accent); }
.signet-builder .signet-palette-icon {
  flex: none; display: inline-flex; align-items: center; justify-content: center; width: 24px; height: 24px;
  border-radius: 5px; background: #eef2ff; color: var(--_accent); font-size: 12px; font-weight: 700;
}
.signet-builder .signet-builder-label { display: flex; flex-direction: column; gap: 4px; font-size: 13px; font-weight: 600; }
.signet-builder .signet-builder-label input:is([type="text"], [type="email"], [type="date"]), .signet-builder .signet-builder-label select,
.signet-builder .signet-builder-label textarea, .signet-builder .signet-signer-inputs input {
  width: 100%; min-height: 34px; padding: 5px 8px; border: 1px solid #9aa5b1; border-radius: 6px;
  background: #fff; color: var(--_text); font: inherit; font-size: 14px; font-weight: 400;
}
.signet-builder .signet-builder-label textarea { min-height: 84px; resize: vertical; }
.signet-builder .signet-builder-check { display: flex; align-items: center; gap: 8px; font-size: 14px; }
.signet-builder .signet-builder-check input { width: 16px; height: 16px; accent-color: var(--_accent); }
.signet-builder .signet-builder-meta { margin: 0; font-size: 12.5px; color: var(--_muted); font-variant-numeric: tabular-nums; }
.signet-builder .signet-builder-type { display: flex; align-items: center; gap: 8px; font-weight: 650; }
.signet-builder .signet-button--danger { background: var(--_surface); color: var(--_danger); border-color: var(--_border); }
.signet-builder .signet-button--danger:hover { border-color: var(--_danger); }
.signet-builder .signet-builder-centre { position: relative; min-height: 0; display: flex; flex-direction: column; }
.signet-builder .signet-builder-centre > .signet-status { position: absolute; z-index: 3; top: 0; inset-inline: 0; margin: 12px auto; box-shadow: 0 6px 24px rgba(16, 24, 40, 0.14); }
.signet-builder .signet-problems { margin: 6px 0 0; padding-inline-start: 18px; color: var(--_text); font-size: 14px; }
.signet-builder .signet-builder-layer { position: absolute; inset: 0; }
.signet-builder .signet-builder-field {
  position: absolute; display: flex; border: 1.5px solid var(--_signer, var(--_accent)); border-radius: 3px;
  background: color-mix(in srgb, var(--_signer, var(--_accent)) 13%, rgba(255, 255, 255, 0.9)); cursor: move; touch-action: none; container-type: size;
}
.signet-builder .signet-builder-field > button {
  flex: 1 1 auto; min-width: 0; display: flex; align-items: center; gap: 4px; padding: 0 4px; border: 0; background: none;
  color: #1f2933; font: inherit; font-size: clamp(8px, 42cqh, 12px); font-weight: 600; line-height: 1.1; text-align: start;
  cursor: inherit; overflow: hidden; white-space: nowrap;
}
.signet-builder .signet-builder-field > button:focus-visible { outline: none; }
.signet-builder .signet-builder-field:has(> button:focus-visible) { outline: 2px solid var(--_focus); outline-offset: 2px; }
.signet-builder .signet-builder-field-text { overflow: hidden; text-overflow: ellipsis; }
.signet-builder .signet-builder-field[data-selected] {
  border-width: 2px; border-color: var(--_selected); background: color-mix(in srgb, var(--_selected) 18%, rgba(255, 255, 255, 0.9));
  box-shadow: 0 0 0 3px color-mix(in srgb, var(--_selected) 25%, transparent); z-index: 1;
}
.signet-builder .signet-builder-field[data-required] > button::after {
  content: "*"; color: var(--_danger); font-weight: 700; margin-inline-start: 1px;
}
.signet-builder .signet-handle {
  position: absolute; width: 9px; height: 9px; background: #fff; border: 1.5px solid var(--_selected); border-radius: 2px;
}
.signet-builder .signet-handle[data-handle="nw"] { left: -5px; top: -5px; cursor: nwse-resize; }
.signet-builder .signet-handle[data-handle="n"] { left: calc(50% - 5px); top: -5px; cursor: ns-resize; }
.signet-builder .signet-handle[data-handle="ne"] { right: -5px; top: -5px; cursor: nesw-resize; }
.signet-builder .signet-handle[data-handle="e"] { right: -5px; top: calc(50% - 5px); cursor: ew-resize; }
.signet-builder .signet-handle[data-handle="se"] { right: -5px; bottom: -5px; cursor: nwse-resize; }
.signet-builder .signet-handle[data-handle="s"] { left: calc(50% - 5px); bottom: -5px; cursor: ns-resize; }
.signet-builder .signet-handle[data-handle="sw"] { left: -5px; bottom: -5px; cursor: nesw-resize; }
.signet-builder .signet-handle[data-handle="w"] { left: -5px; top: calc(50% - 5px); cursor: ew-resize; }
.signet-builder .signet-drag-ghost {
  position: fixed; z-index: 10; pointer-events: none; padding: 4px 10px; border-radius: 4px; background: var(--_accent);
  color: var(--_accent-text); font-size: 13px; font-weight: 600; box-shadow: 0 4px 14px rgba(16, 24, 40, 0.2); transform: translate(-50%, -50%);
}
.signet-builder .signet-snap-guide { position: absolute; z-index: 2; pointer-events: none; background: #e11d74; }
.signet-builder .signet-snap-guide[data-axis="x"] { top: 0; bottom: 0; width: 1px; margin-left: -0.5px; }
.signet-builder .signet-snap-guide[data-axis="y"] { left: 0; right: 0; height: 1px; margin-top: -0.5px; }
.signet-builder .signet-snap-guide[data-field] { background: repeating-linear-gradient(var(--_guide-dir, 0deg), #e11d74 0 4px, transparent 4px 7px); }
.signet-builder .signet-snap-guide[data-field][data-axis="y"] { --_guide-dir: 90deg; }
.signet-builder .signet-builder-actions { display: flex; flex-direction: column; gap: 8px; }
.signet-builder .signet-builder-action-row { display: flex; flex-wrap: wrap; gap: 6px; }
.signet-builder .signet-builder-action-row .signet-icon-button { font-size: 13px; }
.signet-builder .signet-icon-button.signet-builder-danger:not(:disabled) { color: var(--_danger); }
.signet-builder .signet-handle { touch-action: none; }
@media (pointer: coarse) {
  .signet-builder .signet-handle::before { content: ""; position: absolute; inset: -8px; }
}
.signet-builder .signet-signer-swatch { flex: none; width: 10px; height: 10px; border-radius: 50%; background: var(--_signer); }
.signet-builder .signet-builder-side-column {
  min-height: 0; overflow: auto; display: flex; flex-direction: column; background: var(--_surface); border-inline-start: 1px solid var(--_border);
}
.signet-builder .signet-builder-side-column > .signet-builder-side { flex: none; overflow: visible; border-inline-start: 0; }
@media (max-width: 760px) {
  .signet-builder .signet-builder-body { grid-template-columns: 150px minmax(0, 1fr); }
  .signet-builder .signet-builder-side-column { grid-column: 1 / -1; border-inline-start: 0; border-top: 1px solid var(--_border); max-height: 40%; }
}
@media (forced-colors: active) {
  .signet-builder .signet-builder-field { border: 2px solid CanvasText; }
  .signet-builder .signet-builder-field[data-selected] { border: 3px solid Highlight; }
  .signet-builder .signet-snap-guide { forced-color-adjust: none; background: Highlight; }
}
`;

export const builderCss = viewerCss + ownCss;

/** The colour of each signer's fields, in the order the draft lists them (contrast ≥ 3:1 on white). */
export const SIGNER_COLOURS = ['#2f5bea', '#c2410c', '#0f7b45', '#7c3aed', '#be185d', '#0e7490'] as const;
