import type { FieldType } from '@signet/contract';

/**
 * Every text the builder shows, `{placeholders}` filled in by `fill`. English is built in; the viewer's other nine
 * languages load as chunks of their own (`builder-locales.ts`), as the viewer's texts do.
 */
export interface BuilderMessages {
  builderLabel: string;
  loading: string;
  loadFailed: string;
  retry: string;
  palette: string;
  paletteHint: string;
  /** The signer the palette's new fields go to. */
  placeFor: string;
  typeText: string;
  typeSignature: string;
  typeInitials: string;
  typeDate: string;
  typeCheckbox: string;
  typeNumber: string;
  typeEmail: string;
  typePhone: string;
  typeTextarea: string;
  typeSelect: string;
  typeRadio: string;
  typeImage: string;
  /** A choice field's first options are "Option 1", "Option 2". */
  option: string;
  zoomIn: string;
  zoomOut: string;
  fitWidth: string;
  /** `{percent}`: a whole number. */
  zoomValue: string;
  pages: string;
  /** `{page}` */
  pageLabel: string;
  /** A field on a page: `{label}`, `{type}`, `{page}`. */
  fieldName: string;
  fieldHelp: string;
  /** Said to screen readers: `{label}`. */
  fieldAdded: string;
  fieldDeleted: string;
  properties: string;
  noSelection: string;
  label: string;
  required: string;
  signer: string;
  options: string;
  /** `{page}`, `{x}`, `{y}`, `{width}`, `{height}` in points. */
  fieldPlace: string;
  deleteField: string;
  undo: string;
  redo: string;
  send: string;
  sending: string;
  saving: string;
  saved: string;
  unsaved: string;
  saveFailed: string;
  conflictTitle: string;
  /** `{version}`: the version saved elsewhere. */
  conflictBody: string;
  reload: string;
  problemsTitle: string;
  sendRefused: string;
  sendFailed: string;
  sentTitle: string;
  sentBody: string;
  notDraft: string;
  // Field properties and signers.
  fieldId: string;
  /** An id typed that is not applied, and why. */
  fieldIdInvalid: string;
  fieldIdTaken: string;
  readOnly: string;
  prefill: string;
  prefillNone: string;
  prefillChecked: string;
  rules: string;
  ruleMin: string;
  ruleMax: string;
  ruleStep: string;
  ruleMinLength: string;
  ruleMaxLength: string;
  rulePattern: string;
  ruleMessage: string;
  ruleNotNumber: string;
  /** `{min}`, `{max}` */
  ruleNotWhole: string;
  ruleNotPositive: string;
  patternInvalid: string;
  signers: string;
  noSigners: string;
  signingOrder: string;
  orderParallel: string;
  orderSequential: string;
  /** `{number}`: the signer's place in the list. */
  signerNameOf: string;
  signerEmailOf: string;
  /** `{name}`: the signer's. */
  moveUp: string;
  moveDown: string;
  removeSigner: string;
  signerHasFields: string;
  signerNameMissing: string;
  newSignerName: string;
  newSignerEmail: string;
  addSigner: string;
  signerEmailInvalid: string;
  /** `{count}`: the contract's most. */
  signersFull: string;
  // Several fields, copy and paste (docs/decisions.md, "Builder: several fields, copy and paste, touch").
  /** The keyboard's and the pointer's ways to select several fields, copy, paste and duplicate them. */
  selectionHelp: string;
  /** `{count}`: 2 or more. */
  selectedCount: string;
  /** The group of the selection's buttons. */
  selectionActions: string;
  copy: string;
  paste: string;
  duplicate: string;
  duplicateToPages: string;
  deleteFields: string;
  /** Said to screen readers: `{count}` (1 or more). */
  copiedCount: string;
  /** Said to screen readers: `{count}` (2 or more). */
  addedCount: string;
  deletedCount: string;
  // A field's font size (docs/decisions.md, "Builder: font size").
  fontSize: string;
  /** The font size input's placeholder when the size follows the field's height. */
  fontSizeAuto: string;
  /** `{min}`, `{max}`: the contract's bounds, in points. */
  fontSizeInvalid: string;
}

export const en: BuilderMessages = {
  builderLabel: 'Document builder',
  loading: 'Loading the draft…',
  loadFailed: 'The draft could not be opened.',
  retry: 'Try again',
  palette: 'Fields',
  paletteHint: 'Drag a field onto a page, or press Enter to add it to the current page.',
  placeFor: 'New fields for',
  typeText: 'Text',
  typeSignature: 'Signature',
  typeInitials: 'Initials',
  typeDate: 'Date',
  typeCheckbox: 'Checkbox',
  typeNumber: 'Number',
  typeEmail: 'Email',
  typePhone: 'Phone',
  typeTextarea: 'Multi-line text',
  typeSelect: 'Dropdown',
  typeRadio: 'Radio buttons',
  typeImage: 'Image',
  option: 'Option',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  fitWidth: 'Fit to width',
  zoomValue: '{percent}%',
  pages: 'Pages',
  pageLabel: 'Page {page}',
  fieldName: '{label}, {type}, page {page}',
  fieldHelp: 'Arrow keys move by 1 pt, with Shift by 10 pt; Alt with arrows resizes. Delete removes.',
  fieldAdded: '{label} added',
  fieldDeleted: '{label} deleted',
  properties: 'Properties',
  noSelection: 'Select a field to edit its properties.',
  label: 'Label',
  required: 'Required',
  signer: 'Signer',
  options: 'Options, one per line',
  fieldPlace: 'Page {page} · x {x} · y {y} · {width} × {height} pt',
  deleteField: 'Delete field',
  undo: 'Undo',
  redo: 'Redo',
  send: 'Send',
  sending: 'Sending…',
  saving: 'Saving…',
  saved: 'All changes saved',
  unsaved: 'Unsaved changes',
  saveFailed: 'The changes could not be saved.',
  conflictTitle: 'Changed elsewhere',
  conflictBody: 'Someone else saved this draft (version {version}). Reload it to go on; your unsaved changes will be lost.',
  reload: 'Reload',
  problemsTitle: 'Not ready to send',
  sendRefused: 'This session may not send the document.',
  sendFailed: 'The document could not be sent.',
  sentTitle: 'Sent',
  sentBody: 'The document is ready to be signed.',
  notDraft: 'This document has been sent and can no longer be edited.',
  // Field properties and signers.
  fieldId: 'Field id',
  fieldIdInvalid: 'Not applied: use 1 to 64 letters, digits or _ . : -',
  fieldIdTaken: 'Not applied: another field has this id',
  readOnly: 'Read-only (the signer cannot change it)',
  prefill: 'Prefilled value',
  prefillNone: 'None',
  prefillChecked: 'Ticked beforehand',
  rules: 'Rules',
  ruleMin: 'Minimum',
  ruleMax: 'Maximum',
  ruleStep: 'Step',
  ruleMinLength: 'Minimum length',
  ruleMaxLength: 'Maximum length',
  rulePattern: 'Pattern (regular expression)',
  ruleMessage: 'Message when it does not match',
  ruleNotNumber: 'Not applied: not a number',
  ruleNotWhole: 'Not applied: a whole number from {min} to {max}',
  ruleNotPositive: 'Not applied: a number above 0',
  patternInvalid: 'Not a valid regular expression: the draft cannot be sent with it',
  signers: 'Signers',
  noSigners: 'No named signers yet: whoever signs fills in every field.',
  signingOrder: 'Signing order',
  orderParallel: 'All at once',
  orderSequential: 'One after another, in this order',
  signerNameOf: 'Name of signer {number}',
  signerEmailOf: 'Email of signer {number}',
  moveUp: 'Move {name} up',
  moveDown: 'Move {name} down',
  removeSigner: 'Remove {name}',
  signerHasFields: '{name} still has fields: give them to another signer first.',
  signerNameMissing: 'Not applied: a name is needed',
  newSignerName: 'New signer’s name',
  newSignerEmail: 'Email (optional)',
  addSigner: 'Add signer',
  signerEmailInvalid: 'Not an email address',
  signersFull: 'At most {count} signers.',
  // Several fields, copy and paste.
  selectionHelp: 'Shift+click or Ctrl/Cmd+click adds a field to the selection or takes it out (Shift+Enter with the keyboard); Ctrl/Cmd+A selects the page\'s fields, Escape none. Ctrl/Cmd+C, Ctrl/Cmd+V and Ctrl/Cmd+D copy, paste and duplicate; Ctrl/Cmd+Shift+D duplicates onto every page.',
  selectedCount: '{count} fields selected',
  selectionActions: 'Selected fields',
  copy: 'Copy',
  paste: 'Paste',
  duplicate: 'Duplicate',
  duplicateToPages: 'Duplicate onto every page',
  deleteFields: 'Delete fields',
  copiedCount: 'Copied: {count}',
  addedCount: 'Fields added: {count}',
  deletedCount: 'Fields deleted: {count}',
  fontSize: 'Font size (pt)',
  fontSizeAuto: 'Automatic',
  fontSizeInvalid: 'Not applied: {min} to {max} points',
};

const TYPE_KEYS: Record<FieldType, keyof BuilderMessages> = {
  text: 'typeText',
  signature: 'typeSignature',
  initials: 'typeInitials',
  date: 'typeDate',
  checkbox: 'typeCheckbox',
  number: 'typeNumber',
  email: 'typeEmail',
  phone: 'typePhone',
  textarea: 'typeTextarea',
  select: 'typeSelect',
  radio: 'typeRadio',
  image: 'typeImage',
};

/** The name of a field type in `messages`' language. */
export const typeName = (messages: BuilderMessages, type: FieldType) => messages[TYPE_KEYS[type]];

/**
 * `template` with its `{placeholders}` filled in (a missing value stays as written).
 * @example fill('Page {page}', { page: 2 }) // 'Page 2'
 */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (values[name] === undefined ? whole : String(values[name])));
}
