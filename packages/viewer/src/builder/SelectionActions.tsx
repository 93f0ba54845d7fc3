import type { FieldDefinition } from '@signet/contract';
import { fill, type BuilderMessages } from './messages.js';

export interface SelectionActionsProps {
  /** The selected fields (none: only Paste is offered, when something was copied). */
  selection: readonly FieldDefinition[];
  canPaste: boolean;
  pageCount: number;
  messages: BuilderMessages;
  readOnly: boolean;
  signers: ReadonlyArray<{ id: string; name: string }>;
  onCopy(): void;
  onPaste(): void;
  onDuplicate(): void;
  onEveryPage(): void;
  onDelete(): void;
  /** The signer of every selected field. */
  onSigner(signerId: string): void;
}

/**
 * What the author does with the selection, at the top of the properties panel: copy, paste, duplicate, duplicate
 * onto every page (each button naming its shortcut); with several fields selected also how many, one signer for
 * all, and delete (a single field's form has its own delete button).
 */
export function SelectionActions(props: SelectionActionsProps) {
  const { selection, messages, readOnly } = props;
  const several = selection.length > 1;
  if (selection.length === 0 && !props.canPaste) return null;
  const first = selection[0]?.signerId;
  const signer = selection.every((field) => field.signerId === first) ? (first ?? '') : '';
  const action = (label: string, keys: string, onClick: () => void, disabled = readOnly, danger = false) => (
    <button
      type="button"
      className={danger ? 'signet-icon-button signet-builder-danger' : 'signet-icon-button'}
      aria-keyshortcuts={keys}
      disabled={disabled}
      onClick={onClick}
    >
      {label}
    </button>
  );
  return (
    <div className="signet-builder-actions">
      {several ? <p className="signet-builder-type">{fill(messages.selectedCount, { count: selection.length })}</p> : null}
      {several && props.signers.length > 0 ? (
        <label className="signet-builder-label">
          {messages.signer}
          <select value={signer} disabled={readOnly} onChange={(event) => props.onSigner(event.target.value)}>
            {signer === '' ? <option value="" /> : null}
            {props.signers.map((each) => (
              <option key={each.id} value={each.id}>
                {each.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <div className="signet-builder-action-row" role="group" aria-label={messages.selectionActions}>
        {selection.length > 0 ? action(messages.copy, 'Control+C Meta+C', props.onCopy, false) : null}
        {action(messages.paste, 'Control+V Meta+V', props.onPaste, readOnly || !props.canPaste)}
        {selection.length > 0 ? (
          <>
            {action(messages.duplicate, 'Control+D Meta+D', props.onDuplicate)}
            {action(messages.duplicateToPages, 'Control+Shift+D Meta+Shift+D', props.onEveryPage, readOnly || props.pageCount < 2)}
            {several ? action(messages.deleteFields, 'Delete Backspace', props.onDelete, readOnly, true) : null}
          </>
        ) : null}
      </div>
    </div>
  );
}
