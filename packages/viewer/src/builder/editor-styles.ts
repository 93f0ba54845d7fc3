/**
 * The styles of the property editors and the signers section, adopted by those chunks when they render (beside
 * `builderCss`, which the builder adopts at once): the builder's startup bundle does not carry them.
 */
export const editorCss = /* css */ `
.signet-builder .signet-builder-problem { font-size: 12.5px; font-weight: 400; color: var(--_danger); line-height: 1.35; margin: 0; }
.signet-builder .signet-builder-rules, .signet-builder .signet-builder-order {
  margin: 0; min-width: 0; padding: 8px 10px 10px; border: 1px solid var(--_border); border-radius: 6px; display: flex; flex-direction: column; gap: 8px;
}
.signet-builder .signet-builder-rules legend, .signet-builder .signet-builder-order legend { padding: 0 4px; font-size: 13px; font-weight: 600; }
.signet-builder .signet-builder-check input[type="radio"] { width: 16px; height: 16px; accent-color: var(--_accent); }
.signet-builder .signet-builder-signers { display: block; border-top: 1px solid var(--_border); }
.signet-builder .signet-builder-signers > * + * { margin-top: 12px; }
.signet-builder .signet-builder-signers > summary { min-height: 24px; display: list-item; cursor: pointer; }
.signet-builder .signet-signer-list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 10px; }
.signet-builder .signet-signer-row { display: grid; grid-template-columns: 10px minmax(0, 1fr) auto; gap: 6px; align-items: start; }
.signet-builder .signet-signer-row .signet-signer-swatch { margin-top: 12px; }
.signet-builder .signet-signer-inputs { display: flex; flex-direction: column; gap: 4px; min-width: 0; }
.signet-builder .signet-signer-buttons { display: flex; gap: 2px; }
.signet-builder .signet-signer-buttons .signet-icon-button { min-width: 28px; min-height: 34px; padding: 0 6px; }
.signet-builder .signet-signer-add { display: flex; flex-direction: column; gap: 8px; }
.signet-builder .signet-builder-extras { display: contents; }
`;
