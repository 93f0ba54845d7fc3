import type { FieldDefinition } from '@signet/contract';
import { useCallback, useState, type Dispatch, type KeyboardEvent, type RefObject, type SetStateAction } from 'react';
import type { PageGeometry } from '../pdf/page-geometry.js';
import { fill, type BuilderMessages } from './messages.js';
import { currentPage } from './page-elements.js';
import { copyFields, onEveryPage, PASTE_OFFSET } from './selection.js';

export interface SelectionActionsOptions {
  /** The fields and the selected ids as they are now (refs, so that the actions stay the same between renders). */
  latestFields: { readonly current: FieldDefinition[] };
  latestSelected: { readonly current: readonly string[] };
  setSelectedIds: Dispatch<SetStateAction<readonly string[]>>;
  /** The field that takes the focus once its box is on the page. */
  setFocusId(fieldId: string): void;
  /** What the status region says. */
  setAnnouncement(text: string): void;
  /** One step of undo: the fields as they are after it. */
  edit(fields: FieldDefinition[]): void;
  /** Undo, or (`redo`) redo. */
  undo(redo: boolean): void;
  sizeOf(page: number): PageGeometry | undefined;
  pageCount: number;
  readOnly: boolean;
  messages: BuilderMessages;
  rootRef: RefObject<HTMLElement | null>;
}

/**
 * What the builder does to the selected fields (docs/decisions.md, "Builder: several fields, copy and paste,
 * touch"): delete, copy into the builder's own clipboard, paste onto the current page, duplicate in place or onto
 * every page, give them a signer, each one step of undo and said in the status region; and the keyboard shortcuts
 * of these and of undo, redo, select all and select none (`onShortcut`, on the builder's root).
 */
export function useSelectionActions(options: SelectionActionsOptions) {
  const { latestFields, latestSelected, setSelectedIds, setFocusId, setAnnouncement, edit, undo, sizeOf, pageCount, readOnly, messages, rootRef } = options;
  // What Ctrl/Cmd+C copied: the fields as they were then (the builder's own, not the system clipboard).
  const [clipboard, setClipboard] = useState<FieldDefinition[]>([]);

  /** The selected fields, in the order of the field list. */
  const selectedFields = useCallback(
    () => latestFields.current.filter((field) => latestSelected.current.includes(field.id)),
    [latestFields, latestSelected],
  );
  /** Deletes `gone` (one step of undo) and says so. */
  const removeFields = useCallback(
    (gone: readonly FieldDefinition[]) => {
      if (readOnly || gone.length === 0) return;
      const ids = new Set(gone.map((field) => field.id));
      edit(latestFields.current.filter((each) => !ids.has(each.id)));
      setSelectedIds([]);
      setAnnouncement(gone.length === 1 ? fill(messages.fieldDeleted, { label: gone[0]!.label }) : fill(messages.deletedCount, { count: gone.length }));
    },
    [readOnly, edit, latestFields, messages, setSelectedIds, setAnnouncement],
  );
  const remove = useCallback((field: FieldDefinition) => removeFields([field]), [removeFields]);
  /** Adds `made` (one step of undo), says so and, unless `keepSelection`, selects them and focuses the first. */
  const addFields = useCallback(
    (made: FieldDefinition[], keepSelection = false) => {
      if (readOnly || made.length === 0) return;
      edit([...latestFields.current, ...made]);
      if (!keepSelection) {
        setSelectedIds(made.map((field) => field.id));
        setFocusId(made[0]!.id);
      }
      setAnnouncement(made.length === 1 ? fill(messages.fieldAdded, { label: made[0]!.label }) : fill(messages.addedCount, { count: made.length }));
    },
    [readOnly, edit, latestFields, messages, setSelectedIds, setFocusId, setAnnouncement],
  );
  const copy = useCallback(() => {
    const chosen = selectedFields();
    if (chosen.length === 0) return;
    setClipboard(chosen);
    setAnnouncement(fill(messages.copiedCount, { count: chosen.length }));
  }, [selectedFields, messages, setAnnouncement]);
  const paste = useCallback(() => {
    const page = currentPage(rootRef.current)?.page;
    if (!page || clipboard.length === 0) return;
    const made = copyFields(clipboard, latestFields.current, () => ({ page, dx: PASTE_OFFSET, dy: PASTE_OFFSET }), sizeOf);
    addFields(made);
    // The next paste lands 10 pt further on.
    setClipboard(made);
  }, [clipboard, latestFields, sizeOf, addFields, rootRef]);
  const duplicate = useCallback(
    () => addFields(copyFields(selectedFields(), latestFields.current, (field) => ({ page: field.page, dx: PASTE_OFFSET, dy: PASTE_OFFSET }), sizeOf)),
    [addFields, selectedFields, latestFields, sizeOf],
  );
  const duplicateToPages = useCallback(
    () => addFields(onEveryPage(selectedFields(), latestFields.current, pageCount), true),
    [addFields, selectedFields, latestFields, pageCount],
  );
  const setSigner = useCallback(
    (signerId: string) => {
      const ids = latestSelected.current;
      edit(latestFields.current.map((field) => (ids.includes(field.id) ? { ...field, signerId } : field)));
    },
    [edit, latestFields, latestSelected],
  );

  const onShortcut = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (target.matches('input, textarea, select')) return;
    const key = event.key.toLowerCase();
    // On the pages or a field (not the palette's or the panel's buttons).
    const onPages = target.closest('.signet-pages') !== null;
    const command = event.ctrlKey || event.metaKey;
    if (key === 'escape' && onPages) setSelectedIds([]);
    if (readOnly) return;
    if ((key === 'delete' || key === 'backspace') && onPages && !command) {
      const gone = selectedFields();
      if (gone.length === 0) return;
      event.preventDefault();
      removeFields(gone);
      rootRef.current?.querySelector<HTMLElement>('.signet-pages')?.focus({ preventScroll: true });
      return;
    }
    if (!command) return;
    if (key === 'z' || key === 'y') {
      event.preventDefault();
      undo(key === 'y' || event.shiftKey);
    } else if (key === 'a' && onPages) {
      event.preventDefault();
      const page = currentPage(rootRef.current)?.page;
      setSelectedIds(latestFields.current.filter((field) => field.page === page).map((field) => field.id));
    } else if (key === 'c' && selectedFields().length > 0) {
      copy();
    } else if (key === 'v' && clipboard.length > 0) {
      event.preventDefault();
      paste();
    } else if (key === 'd' && selectedFields().length > 0) {
      event.preventDefault();
      if (event.shiftKey) duplicateToPages();
      else duplicate();
    }
  };

  return { clipboard, selectedFields, removeFields, remove, copy, paste, duplicate, duplicateToPages, setSigner, onShortcut };
}
