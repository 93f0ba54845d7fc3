import { HANDWRITING_FONT_STACK } from './handwriting-font.js';
import { INK_COLOR } from './ink.js';

/**
 * The signature dialog's CSS, every rule scoped under `.signet-viewer` (a modal `<dialog>` is drawn in the top
 * layer but stays a DOM descendant of the viewer's root, so the scope and its inherited custom properties still
 * apply). It builds on the viewer's shell styles: their `--_*` colours (the `--signet-*` theme with fallbacks that
 * meet WCAG AA contrast), border-box sizing, focus ring and `.signet-visually-hidden`. Part of `viewerCss`.
 * @example
 * <style>{viewerCss}</style> // shellCss + pageCss + signatureCss
 */
export const signatureCss = /* css */ `
.signet-viewer .signet-sig-dialog {
  width: calc(100% - 32px);
  max-width: 560px;
  max-height: calc(100% - 32px);
  margin: auto;
  padding: 0;
  overflow: auto;
  border: 1px solid var(--_border);
  border-radius: calc(var(--_radius) * 1.5);
  background: var(--_surface);
  color: var(--_text);
  font: 400 15px/1.5 var(--signet-font, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif);
  box-shadow: 0 24px 48px -12px rgb(16 24 40 / 0.28), 0 4px 12px rgb(16 24 40 / 0.08);
}
.signet-viewer .signet-sig-dialog::backdrop {
  background: rgb(15 23 42 / 0.55);
}
.signet-viewer .signet-sig-form {
  display: flex;
  flex-direction: column;
  gap: 16px;
  margin: 0;
  padding: 20px 24px 24px;
}
.signet-viewer .signet-sig-title {
  margin: 0;
  font-size: 1.2em;
  font-weight: 600;
  line-height: 1.3;
}
.signet-viewer .signet-sig-field {
  display: block;
  margin-top: 2px;
  color: var(--_muted);
  font-size: 0.78em;
  font-weight: 400;
}

/* Tabs: a segmented control; the selected tab is raised and underlined in the accent colour. */
.signet-viewer .signet-sig-tabs {
  display: flex;
  gap: 4px;
  padding: 4px;
  border-radius: var(--_radius);
  background: color-mix(in srgb, var(--_border) 45%, var(--_surface));
}
.signet-viewer .signet-sig-tab {
  flex: 1 1 0;
  min-height: 40px;
  padding: 6px 12px;
  border: 0;
  border-radius: calc(var(--_radius) - 2px);
  background: transparent;
  color: var(--_muted);
  font: inherit;
  font-weight: 500;
  cursor: pointer;
}
.signet-viewer .signet-sig-tab:hover {
  color: var(--_text);
}
.signet-viewer .signet-sig-tab[aria-selected="true"] {
  background: var(--_surface);
  color: var(--_text);
  box-shadow: 0 1px 3px rgb(16 24 40 / 0.14), inset 0 -2px 0 var(--_accent);
}
.signet-viewer .signet-sig-panel[hidden] {
  display: none;
}

/* The pad: a sheet with a signature line and an "×", like the line on a paper form. */
.signet-viewer .signet-sig-pad {
  position: relative;
  width: 100%;
  height: 180px;
  border: 1px solid var(--_muted);
  border-radius: var(--_radius);
  background: var(--_surface);
  overflow: hidden;
}
.signet-viewer .signet-sig-pad[data-kind="initials"] {
  max-width: 320px;
  height: 160px;
  margin-inline: auto;
}
.signet-viewer .signet-sig-canvas {
  position: absolute;
  inset: 0;
  display: block;
  width: 100%;
  height: 100%;
  touch-action: none;
  user-select: none;
  -webkit-user-select: none;
  cursor: crosshair;
}
.signet-viewer .signet-sig-baseline {
  position: absolute;
  inset-inline: 20px;
  bottom: 28%;
  padding-inline-start: 2px;
  border-bottom: 1.5px solid var(--_muted);
  color: var(--_muted);
  font-size: 20px;
  line-height: 1;
  pointer-events: none;
}
.signet-viewer .signet-sig-pad-footer {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
  margin-top: 8px;
}
.signet-viewer .signet-sig-hint {
  margin: 0;
  color: var(--_muted);
  font-size: 0.9em;
}
.signet-viewer .signet-sig-pad-actions {
  display: flex;
  gap: 8px;
  margin-inline-start: auto;
}

/* Type */
.signet-viewer .signet-sig-type {
  display: flex;
  flex-direction: column;
  gap: 6px;
}
.signet-viewer .signet-sig-label {
  font-weight: 500;
}
.signet-viewer .signet-sig-input {
  width: 100%;
  min-height: 44px;
  padding: 8px 12px;
  border: 1px solid var(--_muted);
  border-radius: var(--_radius);
  background: var(--_surface);
  color: var(--_text);
  font: inherit;
  font-size: 16px; /* 16px keeps iOS from zooming in on focus */
}
.signet-viewer .signet-sig-input::placeholder {
  color: var(--_muted);
  opacity: 1;
}
.signet-viewer .signet-sig-typed-preview {
  margin-top: 6px;
}
.signet-viewer .signet-sig-typed-text {
  position: absolute;
  inset-inline: 44px 20px;
  bottom: calc(28% - 0.12em);
  overflow: hidden;
  color: ${INK_COLOR};
  font-family: ${HANDWRITING_FONT_STACK};
  font-size: 56px;
  line-height: 1.25;
  white-space: nowrap;
  text-overflow: ellipsis;
}
.signet-viewer .signet-sig-typed-text[data-empty] {
  color: var(--_muted);
  opacity: 0.5;
}

/* Upload */
.signet-viewer .signet-sig-drop {
  position: relative;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 12px;
  min-height: 180px;
  padding: 20px;
  border: 2px dashed var(--_muted);
  border-radius: var(--_radius);
  background: var(--_surface);
  text-align: center;
}
.signet-viewer .signet-sig-drop[data-dragging] {
  border-color: var(--_accent);
  background: color-mix(in srgb, var(--_accent) 8%, var(--_surface));
}
.signet-viewer .signet-sig-upload-preview {
  display: block;
  max-width: 100%;
  max-height: 120px;
  object-fit: contain;
}
.signet-viewer .signet-sig-error {
  margin: 8px 0 0;
  color: var(--_danger);
  font-weight: 500;
}

/* Buttons */
.signet-viewer .signet-sig-button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: 40px;
  padding: 8px 16px;
  border: 1px solid var(--_muted);
  border-radius: var(--_radius);
  background: var(--_surface);
  color: var(--_text);
  font: inherit;
  font-weight: 500;
  line-height: 1.2;
  cursor: pointer;
}
.signet-viewer .signet-sig-button:hover {
  background: color-mix(in srgb, var(--_border) 40%, var(--_surface));
}
.signet-viewer .signet-sig-button--quiet {
  min-height: 36px;
  padding: 6px 12px;
  border-color: transparent;
  color: var(--_accent);
}
.signet-viewer .signet-sig-button--primary {
  border-color: var(--_accent);
  background: var(--_accent);
  color: var(--_accent-text);
}
.signet-viewer .signet-sig-button--primary:hover {
  background: color-mix(in srgb, var(--_accent) 88%, #000);
}
.signet-viewer .signet-sig-button:disabled,
.signet-viewer .signet-sig-button[aria-disabled="true"] {
  opacity: 0.45;
  cursor: not-allowed;
}
.signet-viewer .signet-sig-button--primary:disabled:hover {
  background: var(--_accent);
}
.signet-viewer .signet-sig-button--quiet[aria-disabled="true"]:hover {
  background: transparent;
}
.signet-viewer .signet-sig-actions {
  display: flex;
  justify-content: flex-end;
  gap: 12px;
  padding-top: 4px;
}

/* The shell's focus ring; the (visually hidden) file input's is drawn on its visible label. */
.signet-viewer .signet-sig-file:focus-visible + .signet-sig-button {
  outline: 2px solid var(--_focus);
  outline-offset: 2px;
}
.signet-viewer .signet-sig-dialog:focus-visible {
  outline: none;
}

/* Narrow screens: a bottom sheet, full width, with thumb-sized actions. */
@media (max-width: 480px) {
  .signet-viewer .signet-sig-dialog {
    width: 100%;
    max-width: 100%;
    max-height: calc(100% - 24px);
    margin: auto 0 0;
    border-width: 1px 0 0;
    border-radius: calc(var(--_radius) * 2) calc(var(--_radius) * 2) 0 0;
  }
  .signet-viewer .signet-sig-form {
    gap: 14px;
    padding: 16px 16px calc(16px + env(safe-area-inset-bottom, 0px));
  }
  .signet-viewer .signet-sig-pad {
    height: 160px;
  }
  .signet-viewer .signet-sig-typed-text {
    font-size: 44px;
  }
  .signet-viewer .signet-sig-actions > .signet-sig-button {
    flex: 1 1 0;
    min-height: 48px;
  }
}
@media (prefers-reduced-motion: no-preference) {
  .signet-viewer .signet-sig-tab,
  .signet-viewer .signet-sig-button {
    transition: background-color 120ms ease, color 120ms ease, box-shadow 120ms ease;
  }
}
`;
