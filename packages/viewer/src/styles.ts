import { pageCss } from './Page/styles.js';
import { signatureCss } from './signature/styles.js';
import { dateInputCss } from './fields/date-styles.js';
import { fieldTypesCss } from './fields/styles.js';
import { stepPanelCss } from './steps/styles.js';

/**
 * The viewer's own styles: every selector under `.signet-viewer`, every class `signet-…`, so nothing leaks into
 * the host page. Themable through the `--signet-*` custom properties (docs/embedding.md, "Theming").
 */
const shellCss = /* css */ `
.signet-viewer {
  --_accent: var(--signet-accent, #2f5bea);
  --_accent-text: var(--signet-accent-text, #ffffff);
  --_text: var(--signet-text, #1f2933);
  --_muted: var(--signet-muted, #52606d);
  --_surface: var(--signet-surface, #ffffff);
  --_border: var(--signet-border, #d9e2ec);
  --_danger: var(--signet-danger, #c81e1e);
  --_success: var(--signet-success, #0f7b45);
  --_radius: var(--signet-radius, 8px);
  --_focus: var(--signet-focus, #2f5bea);
  --_field: var(--signet-field-bg, rgba(47, 91, 234, 0.07));
}
/* Zero specificity: a host's class (height, border, radius) wins over these defaults. */
:where(.signet-viewer) {
  position: relative;
  display: flex;
  flex-direction: column;
  height: 100%;
  min-height: 360px;
  overflow: hidden;
  color: var(--_text);
  background: var(--signet-bg, #f1f3f5);
  border: 1px solid var(--_border);
  border-radius: var(--_radius);
  font-family: var(--signet-font, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif);
  font-size: 15px;
  line-height: 1.45;
  text-align: start;
}
.signet-viewer *, .signet-viewer *::before, .signet-viewer *::after { box-sizing: border-box; }
.signet-viewer .signet-visually-hidden {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
.signet-viewer :focus-visible { outline: 2px solid var(--_focus); outline-offset: 2px; }
.signet-viewer .signet-toolbar {
  display: flex; align-items: center; justify-content: space-between; gap: 12px;
  padding: 8px 12px; background: var(--_surface); border-bottom: 1px solid var(--_border);
}
.signet-viewer .signet-title { font-weight: 600; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.signet-viewer .signet-pages-area { position: relative; flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }
.signet-viewer .signet-loading, .signet-viewer .signet-centered {
  flex: 1 1 auto; display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 12px;
  padding: 24px; color: var(--_muted);
}
/* Loading indicators show (and start moving) only once a load has taken 400 ms: a fast load does not flash them,
   and their animation frames do not compete with the load on a slow device. */
.signet-viewer .signet-spinner {
  width: 28px; height: 28px; border-radius: 50%; border: 3px solid var(--_border); border-top-color: var(--_accent);
  visibility: hidden;
  animation: signet-appear 0s 400ms forwards, signet-spin 0.8s linear 400ms infinite;
}
@keyframes signet-appear { to { visibility: visible; } }
@keyframes signet-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .signet-viewer .signet-spinner { animation-duration: 0s, 2.4s; } }

.signet-viewer .signet-button {
  display: inline-flex; align-items: center; justify-content: center; gap: 6px; min-height: 40px; padding: 8px 16px;
  border-radius: calc(var(--_radius) - 2px); border: 1px solid transparent; font: inherit; font-weight: 600;
  cursor: pointer; white-space: nowrap;
}
.signet-viewer .signet-button--primary { background: var(--_accent); color: var(--_accent-text); }
.signet-viewer .signet-button--primary:hover:not(:disabled) { filter: brightness(0.92); }
.signet-viewer .signet-button--secondary { background: var(--_surface); color: var(--_accent); border-color: var(--_border); }
.signet-viewer .signet-button--secondary:hover { border-color: var(--_accent); }
.signet-viewer .signet-button:disabled { background: #e4e7eb; color: #52606d; border-color: #e4e7eb; cursor: not-allowed; }

.signet-viewer .signet-guidance {
  display: flex; align-items: center; justify-content: space-between; gap: 12px; flex-wrap: wrap;
  padding: 10px 14px; background: var(--_surface); border-top: 1px solid var(--_border);
}
.signet-viewer .signet-guidance-status { display: flex; flex-direction: column; gap: 6px; min-width: 180px; flex: 1 1 200px; }
.signet-viewer .signet-guidance-text { font-size: 14px; color: var(--_text); font-weight: 500; }
.signet-viewer .signet-guidance-meter { display: block; height: 6px; border-radius: 3px; background: var(--_border); overflow: hidden; max-width: 320px; }
.signet-viewer .signet-guidance-meter > span { display: block; height: 100%; background: var(--_accent); transition: width 0.2s ease; }
.signet-viewer .signet-guidance-actions { display: flex; gap: 8px; }
@media (max-width: 480px) {
  .signet-viewer .signet-guidance-actions { width: 100%; }
  .signet-viewer .signet-guidance-actions .signet-button { flex: 1 1 0; padding: 8px 10px; min-width: 0; white-space: normal; }
  .signet-viewer .signet-toolbar { padding: 6px 8px; flex-wrap: wrap; row-gap: 4px; }
  /* The file name gets a line of its own rather than an ellipsis after its first letter. */
  .signet-viewer .signet-title { flex: 1 0 100%; }
}

.signet-viewer .signet-status {
  display: flex; gap: 12px; align-items: flex-start; margin: 12px; padding: 12px 14px; max-width: 640px;
  background: var(--_surface); border: 1px solid var(--_border); border-inline-start-width: 4px; border-radius: var(--_radius);
}
.signet-viewer .signet-pages-area > .signet-status { align-self: center; }
.signet-viewer .signet-status--error { border-inline-start-color: var(--_danger); }
.signet-viewer .signet-status--success { border-inline-start-color: var(--_success); }
.signet-viewer .signet-status--info { border-inline-start-color: var(--_accent); }
.signet-viewer .signet-status-icon {
  flex: none; display: inline-flex; align-items: center; justify-content: center; width: 24px; height: 24px;
  border-radius: 50%; font-weight: 700; font-size: 14px; color: #fff; background: var(--_accent);
}
.signet-viewer .signet-status--error .signet-status-icon { background: var(--_danger); }
.signet-viewer .signet-status--success .signet-status-icon { background: var(--_success); }
.signet-viewer .signet-status-title { margin: 0; font-weight: 650; }
.signet-viewer .signet-status-text { margin: 2px 0 0; color: var(--_muted); }
.signet-viewer .signet-status .signet-button { margin-top: 10px; }
.signet-viewer .signet-toolbar > .signet-button { margin-inline-start: auto; min-height: 32px; padding: 4px 12px; }
.signet-viewer .signet-decline { display: flex; flex-direction: column; gap: 8px; margin-top: 6px; }
.signet-viewer .signet-decline-label { display: flex; flex-direction: column; gap: 4px; font-weight: 600; color: var(--_text); }
.signet-viewer .signet-decline textarea { width: 100%; min-width: min(420px, 70vw); padding: 6px 8px; font: inherit; font-weight: 400; resize: vertical; }
.signet-viewer .signet-reference code { font-size: 0.9em; background: #f1f3f5; padding: 1px 4px; border-radius: 4px; }
/* The signed copy under the completed state: a line that waits calmly, then a link that looks like a button. The line
   is as tall as the link that replaces it, so the pages below do not move when it arrives. */
.signet-viewer .signet-signed-copy { display: flex; align-items: center; gap: 8px; min-height: 40px; margin: 10px 0 0; color: var(--_muted); font-size: 14px; }
.signet-viewer .signet-spinner--inline { width: 16px; height: 16px; border-width: 2px; flex: none; }
.signet-viewer a.signet-button { text-decoration: none; }
.signet-viewer .signet-download-icon { flex: none; }

.signet-viewer .signet-field-layer { position: absolute; inset: 0; pointer-events: none; }
.signet-viewer .signet-field { position: absolute; pointer-events: auto; container-type: size; }
.signet-viewer .signet-input {
  display: block; width: 100%; height: 100%; margin: 0; padding: 0 0.35em; border: 1.5px solid var(--_accent);
  border-radius: 3px; background: var(--_field); color: #111827; line-height: 1; min-width: 0;
}
.signet-viewer .signet-input::placeholder { color: #616e7c; opacity: 1; }
.signet-viewer .signet-input:focus { background: #fff; }
.signet-viewer .signet-checkbox { display: block; width: 100%; height: 100%; margin: 0; accent-color: var(--_accent); cursor: pointer; }
.signet-viewer .signet-sign-button {
  display: flex; align-items: center; justify-content: center; width: 100%; height: 100%; padding: 2px;
  border: 1.5px dashed var(--_accent); border-radius: 4px; background: var(--_field); color: var(--_accent);
  font: inherit; font-weight: 650; font-size: clamp(9px, 45cqh, 14px); cursor: pointer; overflow: hidden;
}
.signet-viewer .signet-sign-prompt { display: inline-flex; align-items: center; gap: 0.35em; white-space: nowrap; }
.signet-viewer .signet-sign-icon { font-size: 1.15em; line-height: 1; }
/* A field too small for its words shows the pen alone; the button keeps its accessible name. */
@container (max-width: 84px) { .signet-viewer .signet-sign-text { display: none; } }
.signet-viewer .signet-sign-button:hover:not(:disabled) { background: rgba(47, 91, 234, 0.14); }
.signet-viewer .signet-sign-image { display: block; max-width: 100%; max-height: 100%; object-fit: contain; }
.signet-viewer .signet-field--required::after {
  content: ""; position: absolute; top: -4px; inset-inline-end: -4px; width: 8px; height: 8px; border-radius: 50%;
  background: var(--_danger); box-shadow: 0 0 0 2px #fff; pointer-events: none;
}
.signet-viewer .signet-field--required.signet-field--done::after { background: var(--_success); }
.signet-viewer .signet-field--invalid .signet-input,
.signet-viewer .signet-field--invalid .signet-sign-button,
.signet-viewer .signet-field--invalid .signet-checkbox {
  border-color: var(--_danger); border-style: solid; box-shadow: 0 0 0 3px rgba(200, 30, 30, 0.28);
  outline: 2px solid var(--_danger);
}
.signet-viewer .signet-field--readonly .signet-input,
.signet-viewer .signet-field--readonly .signet-sign-button {
  border: 1px dashed #9aa5b1; background: rgba(241, 243, 245, 0.7); color: #1f2933; cursor: default;
}
.signet-viewer .signet-field-owner {
  display: flex; align-items: center; justify-content: center; width: 100%; height: 100%; padding: 0 4px;
  border: 1px dashed #9aa5b1; border-radius: 4px; background: rgba(241, 243, 245, 0.85); color: #52606d;
  font-size: clamp(8px, 38cqh, 12px); font-style: italic; text-align: center; overflow: hidden; line-height: 1.1;
}
/* Windows high contrast: the system's colours, with every field's boundary and the focus drawn in them. */
@media (forced-colors: active) {
  .signet-viewer .signet-input, .signet-viewer .signet-sign-button, .signet-viewer .signet-field-owner { border: 2px solid CanvasText; }
  .signet-viewer :focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
}
`;

export const viewerCss = shellCss + pageCss + signatureCss + fieldTypesCss + dateInputCss + stepPanelCss;
