/**
 * The CSS of the page list, zoom controls and progress bar, for the viewer to inject once (no global CSS: the
 * viewer lives inside arbitrary host pages). Every rule is scoped under `.signet-viewer`; hosts theme it through
 * the `--signet-*` custom properties. Page positions are set inline by `PdfPages` (its layout is computed, not
 * left to CSS), so nothing here can make them drift from the scroll anchoring.
 * @example <style>{pageCss}</style><div className="signet-viewer">…</div>
 */
export const pageCss = `
.signet-viewer .signet-pages {
  position: relative;
  box-sizing: border-box;
  width: 100%;
  height: 100%;
  overflow: auto;
  scrollbar-gutter: stable;
  overscroll-behavior: contain;
  background: var(--signet-bg, #f1f3f5);
  outline: none;
  /* The PDF is not mirrored in a right-to-left viewer: pages keep their left-to-right layout and scrolling. */
  direction: ltr;
}
/* Its fields' text does follow the viewer's direction (an Arabic name starts at the field's right edge). */
.signet-viewer[dir="rtl"] .signet-field-layer {
  direction: rtl;
}
.signet-viewer .signet-pages:focus-visible {
  box-shadow: inset 0 0 0 2px var(--signet-focus, var(--signet-accent, #2f5bea));
}
.signet-viewer .signet-pages-track {
  position: relative;
}
.signet-viewer .signet-page {
  position: absolute;
  overflow: hidden;
  background: var(--signet-surface, #fff);
  border-radius: 2px;
  box-shadow: 0 1px 2px rgba(16, 24, 40, 0.08), 0 2px 10px rgba(16, 24, 40, 0.08);
}
.signet-viewer .signet-page:not([data-painted])::before {
  content: "";
  position: absolute;
  inset: 9% 12% 12%;
  background: repeating-linear-gradient(
    to bottom,
    var(--signet-border, #d9e2ec) 0 2.2%,
    transparent 2.2% 4.4%
  );
  opacity: 0.45;
}
.signet-viewer .signet-page-canvas,
.signet-viewer .signet-page-overlay {
  position: absolute;
  inset: 0;
}
.signet-viewer .signet-page-bitmap,
.signet-viewer .signet-page-preview {
  position: absolute;
  inset: 0;
  display: block;
  width: 100%;
  height: 100%;
}
.signet-viewer .signet-page-preview {
  user-select: none;
}
.signet-viewer .signet-page[data-painted="true"] > .signet-page-preview {
  display: none;
}

.signet-viewer .signet-zoom {
  display: inline-flex;
  align-items: center;
  gap: 2px;
  padding: 2px;
  border: 1px solid var(--signet-border, #d9e2ec);
  border-radius: var(--signet-radius, 8px);
  background: var(--signet-surface, #fff);
  color: var(--signet-text, #1f2933);
  font-family: var(--signet-font, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif);
  font-size: 14px;
  line-height: 1;
}
.signet-viewer .signet-zoom-button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-width: 32px;
  height: 32px;
  padding: 0 6px;
  border: 0;
  border-radius: calc(var(--signet-radius, 8px) - 2px);
  background: transparent;
  color: inherit;
  font: inherit;
  cursor: pointer;
}
.signet-viewer .signet-zoom-button:hover:not(:disabled) {
  background: var(--signet-bg, #f1f3f5);
}
.signet-viewer .signet-zoom-button:focus-visible {
  outline: 2px solid var(--signet-focus, var(--signet-accent, #2f5bea));
  outline-offset: 1px;
}
.signet-viewer .signet-zoom-button:disabled {
  opacity: 0.4;
  cursor: default;
}
.signet-viewer .signet-zoom-button[aria-pressed="true"] {
  color: var(--signet-accent, #2f5bea);
}
.signet-viewer .signet-zoom-value {
  min-width: 4.5ch;
  text-align: center;
  color: var(--signet-muted, #52606d);
  font-variant-numeric: tabular-nums;
}

.signet-viewer .signet-progress {
  position: relative;
  overflow: hidden;
  width: 100%;
  height: 4px;
  border-radius: 2px;
  background: var(--signet-border, #d9e2ec);
  visibility: hidden;
  animation: signet-appear 0s 400ms forwards; /* after 400 ms, as the spinner (styles.ts) */
}
/* Over a page preview: a thin line along the top of the pages area. */
.signet-viewer .signet-progress.signet-progress--top {
  position: absolute;
  top: 0;
  inset-inline-start: 0;
  z-index: 1;
  height: 3px;
  border-radius: 0;
}
.signet-viewer .signet-progress-bar {
  position: absolute;
  inset: 0;
  background: var(--signet-accent, #2f5bea);
  transform-origin: left center;
  transition: transform 0.2s ease-out;
}
.signet-viewer[dir="rtl"] .signet-progress-bar {
  transform-origin: right center;
}
.signet-viewer .signet-progress[data-indeterminate] .signet-progress-bar {
  width: 35%;
  animation: signet-progress 1.2s ease-in-out 400ms infinite;
}
@keyframes signet-progress {
  from { transform: translateX(-100%); }
  to { transform: translateX(290%); }
}
@media (prefers-reduced-motion: reduce) {
  .signet-viewer .signet-progress-bar { transition: none; }
  .signet-viewer .signet-progress[data-indeterminate] .signet-progress-bar { animation: none; width: 100%; opacity: 0.5; }
}
`;
