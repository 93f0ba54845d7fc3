/**
 * The date field (`DateInput`): the locale's text of the date covers the browser's own segments while the field
 * does not have the focus; the browser's picker button stays visible and usable at the field's inline end.
 */
export const dateInputCss = `
.signet-viewer .signet-date { position: relative; display: block; width: 100%; height: 100%; }
.signet-viewer .signet-date[data-covered] > .signet-input { color: transparent; }
.signet-viewer .signet-date[data-covered] > .signet-input::-webkit-datetime-edit { opacity: 0; }
.signet-viewer .signet-date-display {
  position: absolute; inset-block: 0; inset-inline-start: 0; inset-inline-end: 1.6em; display: none; align-items: center;
  overflow: hidden; white-space: nowrap; text-overflow: ellipsis; color: #111827; line-height: 1; pointer-events: none;
}
.signet-viewer .signet-field--readonly .signet-date-display { color: #1f2933; }
.signet-viewer .signet-date[data-covered] > .signet-date-display { display: flex; }
`;
