/**
 * The styles of the field types forms need: multi-line text, a select, a radio group whose options fill
 * the field's box in rows, a photo input, and the message under a field whose value breaks its rules.
 */
export const fieldTypesCss = `
.signet-viewer .signet-textarea { padding: 0.25em 0.35em; line-height: 1.25; resize: none; overflow: auto; }
.signet-viewer .signet-select { padding: 0 0.2em; cursor: pointer; }
.signet-viewer .signet-select:disabled { cursor: default; opacity: 1; color: #1f2933; }
.signet-viewer .signet-radio-group {
  display: flex; flex-direction: column; width: 100%; height: 100%; margin: 0; padding: 0;
  border: 1.5px solid var(--_accent); border-radius: 3px; background: var(--_field); color: #111827;
}
.signet-viewer .signet-radio { display: flex; flex: 1 1 0; align-items: center; gap: 0.4em; min-height: 0; padding: 0 0.35em; cursor: pointer; }
.signet-viewer .signet-radio input { flex: none; width: 1em; height: 1em; margin: 0; accent-color: var(--_accent); cursor: inherit; }
.signet-viewer .signet-radio span { overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
.signet-viewer .signet-field--invalid .signet-radio-group,
.signet-viewer .signet-field--invalid .signet-photo { border-color: var(--_danger); outline: 2px solid var(--_danger); }
.signet-viewer .signet-field--readonly .signet-radio-group { border: 1px dashed #9aa5b1; background: rgba(241, 243, 245, 0.7); }
.signet-viewer .signet-photo {
  position: relative; display: flex; align-items: center; justify-content: center; width: 100%; height: 100%;
  border: 1.5px dashed var(--_accent); border-radius: 4px; background: var(--_field); overflow: hidden;
}
.signet-viewer .signet-photo-image { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; }
.signet-viewer .signet-photo-button {
  position: relative; padding: 0.3em 0.6em; border-radius: 4px; background: #fff; color: var(--_accent);
  font-weight: 650; font-size: clamp(10px, 14cqh, 14px); text-align: center; cursor: pointer; box-shadow: 0 1px 2px rgba(0, 0, 0, 0.2);
}
.signet-viewer .signet-photo-button[data-has-image] { position: absolute; bottom: 4px; inset-inline-end: 4px; font-size: 12px; }
.signet-viewer .signet-photo-file:focus-visible + .signet-photo-button { outline: 3px solid var(--_accent); outline-offset: 2px; }
.signet-viewer .signet-photo-error,
.signet-viewer .signet-field-message {
  position: absolute; top: calc(100% + 4px); inset-inline-start: 0; z-index: 2; width: max-content; max-width: min(280px, 80vw);
  padding: 4px 8px; border-radius: 4px; background: var(--_danger); color: #fff; font-size: 12px; line-height: 1.3;
  pointer-events: none; white-space: normal;
}
.signet-viewer .signet-photo-error { top: auto; bottom: 4px; inset-inline-start: 4px; }
/* Said under the field while the signer is in it or points at it; the guidance bar says it meanwhile. */
.signet-viewer .signet-field-message { display: none; max-width: max(100%, 180px); }
.signet-viewer .signet-field:focus-within .signet-field-message,
.signet-viewer .signet-field:hover .signet-field-message { display: block; }
.signet-viewer .signet-guidance-problem:empty { margin-block-start: -6px; }
.signet-viewer .signet-guidance-problem button {
  display: block; max-width: 100%; margin: 2px 0; padding: 0; border: 0; background: none; color: var(--_danger);
  font: inherit; font-size: 13px; font-weight: 600; text-align: start; text-decoration: underline; cursor: pointer;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
}
/* In the phone's step panel: each option a 44 px row, a taller textarea, the photo at a readable size. */
.signet-viewer .signet-steps-body .signet-textarea { min-height: 120px; resize: vertical; }
.signet-viewer .signet-steps-body .signet-radio-group { height: auto; border-radius: 6px; font-size: 16px; }
.signet-viewer .signet-steps-body .signet-radio { flex: none; min-height: 44px; padding: 0 12px; }
.signet-viewer .signet-steps-body .signet-radio input { width: 22px; height: 22px; }
.signet-viewer .signet-steps-body .signet-radio + .signet-radio { border-top: 1px solid var(--_border); }
.signet-viewer .signet-steps-body .signet-photo { height: 160px; border-radius: 6px; }
.signet-viewer .signet-steps-body .signet-photo-button { min-height: 44px; display: inline-flex; align-items: center; font-size: 16px; }
@media (forced-colors: active) {
  .signet-viewer .signet-radio-group, .signet-viewer .signet-photo { border: 2px solid CanvasText; }
  .signet-viewer .signet-field-message, .signet-viewer .signet-photo-error { border: 1px solid CanvasText; }
}
`;
