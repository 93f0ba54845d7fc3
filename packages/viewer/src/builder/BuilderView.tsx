import { SigningApiError, type Draft, type ManagedDocument, type BuilderClient } from '@signet/api';
import { documentPreviewUrl, PREVIEW_PIXELS_PER_POINT, type FieldDefinition, type FieldType, type SignerDefinition, type SigningOrder } from '@signet/contract';
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import { LoadProgress } from '../Page/LoadProgress.js';
import { PdfPages } from '../Page/PdfPages.js';
import type { PagePreview } from '../Page/page-preview.js';
import { PreviewPage } from '../Page/PreviewPage.js';
import { usePagePreview } from '../Page/usePagePreview.js';
import { ZoomControls } from '../Page/ZoomControls.js';
import type { PageGeometry } from '../pdf/page-geometry.js';
import { usePdfDocument } from '../pdf/usePdfDocument.js';
import { StatusPanel } from '../StatusPanel.js';
import { useLatest } from '../useLatest.js';
import { newField, paletteTypes, resizeBy, type FieldRect } from './field-edits.js';
import { FieldBox, type SelectMode, type Snapper } from './FieldBox.js';
import { historyReducer, startHistory } from './history.js';
import { fill, typeName, type BuilderMessages } from './messages.js';
import { Palette, type Drop } from './Palette.js';
import { PropertiesPanel } from './PropertiesPanel.js';
import { SelectionActions } from './SelectionActions.js';
import { useSelectionActions } from './useSelectionActions.js';
import { groupDelta, moveGroup, toggleId } from './selection.js';
import { sendProblems } from './send-problems.js';
import { savedContent, signersFromDraft } from './draft-signers.js';
import { SIGNER_COLOURS } from './styles.js';
import { useAutosave } from './useAutosave.js';
import { currentPage } from './page-elements.js';
import { usePrintedLines } from './usePrintedLines.js';
import type { SigningBuilderEvents } from './SigningBuilder.js';

export interface BuilderViewProps extends SigningBuilderEvents {
  client: BuilderClient;
  draft: Draft;
  messages: BuilderMessages;
  fieldTypes?: readonly FieldType[];
  signers?: readonly string[];
  initialFields?: FieldDefinition[];
  allowSend: boolean;
  snap?: boolean;
}

type Notice =
  | { kind: 'problems'; items: string[] }
  | { kind: 'send-refused' }
  | { kind: 'send-failed'; error: Error }
  | { kind: 'sent' }
  | null;

/** The signers section: a chunk of its own, as the builder's startup bundle is at its budget. */
const SignersPanel = lazy(() => import('./SignersPanel.js').then((module) => ({ default: module.SignersPanel })));

/** What arrow keys do to a selected field, in points: Shift takes bigger steps. */
const STEP = { small: 1, large: 10 };

/**
 * The builder's layout and state once the draft is loaded: the palette, the pages with their fields, the selected
 * field's properties; the undo history; autosave; sending.
 */
export function BuilderView({ client, draft, messages, allowSend, snap = true, ...props }: BuilderViewProps) {
  const events = useLatest(props);
  // The PDF's URL as first loaded: a reload's fresh token must not reload the file.
  const [documentUrl] = useState(draft.documentUrl);
  const { pdf, pages, progress, error: pdfError } = usePdfDocument(documentUrl);
  // Page 1 as the server rendered it: fields can be placed on it while pdf.js boots and opens the file.
  const preview = usePagePreview(useMemo(() => documentPreviewUrl(documentUrl), [documentUrl]));
  const onPreview = !pdf || pages.length === 0;
  const [loaded, setLoaded] = useState(draft);
  const [history, dispatch] = useReducer(historyReducer, undefined, () => startHistory(props.initialFields ?? draft.fields));
  const fields = history.present;
  // The selected fields' ids, in the order they were selected.
  const [selectedIds, setSelectedIds] = useState<readonly string[]>([]);
  const latestSelected = useLatest(selectedIds);
  const [notice, setNotice] = useState<Notice>(null);
  const [sending, setSending] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [focusId, setFocusId] = useState<string | null>(null);
  const [zoom, setZoom] = useState(1);
  const rootRef = useRef<HTMLDivElement>(null);
  const helpId = useId();
  const selectionHelpId = useId();
  const readOnly = loaded.status !== 'draft' || notice?.kind === 'sent';

  // The signers as edited (outside the undo history: docs/decisions.md, "Builder: field properties and signers").
  const [signerState, setSignerState] = useState<{ list: SignerDefinition[]; signingOrder: SigningOrder | undefined }>(() => ({
    list: signersFromDraft(draft.signers),
    signingOrder: draft.signingOrder,
  }));
  const signers = useMemo(() => {
    const all = signerState.list;
    const colours = new Map(all.map((signer, index) => [signer.id, SIGNER_COLOURS[index % SIGNER_COLOURS.length]!]));
    // The host's `signers` limits the draft's own; a signer the author adds here is offered too.
    const hostOwned = new Set((loaded.signers ?? []).map((signer) => signer.id));
    const offered = all.filter((signer) => !props.signers || props.signers.includes(signer.id) || !hostOwned.has(signer.id));
    return { offered: offered.map((signer) => ({ id: signer.id, name: signer.name, colour: colours.get(signer.id)! })), colours };
  }, [signerState.list, loaded.signers, props.signers]);
  // The signer new fields go to: the one chosen while it is still offered, else the first.
  const [chosenFor, setPlaceFor] = useState<string | undefined>();
  const placeFor = signers.offered.some((signer) => signer.id === chosenFor) ? chosenFor : signers.offered[0]?.id;
  const toSaved = useCallback(
    (list: FieldDefinition[], signerList: SignerDefinition[], signingOrder: SigningOrder | undefined) =>
      savedContent(
        list.map((field) => (field.label.trim() ? field : { ...field, label: typeName(messages, field.type) })),
        signerList,
        signingOrder,
      ),
    [messages],
  );

  const autosave = useAutosave({
    client,
    documentId: draft.id,
    fields,
    version: draft.version,
    loadedFields: draft.fields,
    signers: signerState.list,
    signingOrder: signerState.signingOrder,
    toSaved,
    enabled: !readOnly,
    onSave: (result) => events.current.onSave?.(result),
    onError: (error) => events.current.onError?.(error),
  });

  // onChange: every change of the fields after loading (edits, undo, redo), not the load itself.
  const reported = useRef(fields);
  useEffect(() => {
    if (fields === reported.current) return;
    reported.current = fields;
    events.current.onChange?.(fields);
  }, [fields, events]);

  const edit = useCallback((next: FieldDefinition[], merge?: string) => dispatch({ type: 'edit', fields: next, merge }), []);
  const latestFields = useLatest(fields);
  const replace = useCallback(
    (field: FieldDefinition, merge?: string) => edit(latestFields.current.map((each) => (each.id === field.id ? field : each)), merge),
    [edit, latestFields],
  );
  // A field's id typed in the properties panel: the field is found by the id it had, and stays selected.
  const rename = useCallback(
    (previousId: string, field: FieldDefinition, merge?: string) => {
      edit(latestFields.current.map((each) => (each.id === previousId ? field : each)), merge);
      setSelectedIds((ids) => ids.map((id) => (id === previousId ? field.id : id)));
    },
    [edit, latestFields],
  );
  const latestSigners = useLatest(signerState);
  const changeSigners = useCallback(
    (list: SignerDefinition[], signingOrder: SigningOrder | undefined) => {
      // The first signer of a draft without signers takes its fields (one step of undo).
      if (latestSigners.current.list.length === 0 && list.length > 0 && latestFields.current.some((field) => !field.signerId)) {
        edit(latestFields.current.map((field) => (field.signerId ? field : { ...field, signerId: list[0]!.id })));
      }
      setSignerState({ list, signingOrder });
    },
    [edit, latestFields, latestSigners],
  );
  const signerFields = useMemo(() => {
    const counts = new Map<string, number>();
    for (const field of fields) if (field.signerId) counts.set(field.signerId, (counts.get(field.signerId) ?? 0) + 1);
    return counts;
  }, [fields]);
  const sizeOf = useCallback((page: number) => pages[page - 1] ?? pages[0] ?? (page === 1 ? previewGeometry(preview) : undefined), [pages, preview]);
  const printed = usePrintedLines(pdf, sizeOf);
  const select = useCallback(
    (fieldId: string, mode: SelectMode = 'only') => {
      setSelectedIds((ids) => {
        if (mode === 'toggle') return toggleId(ids, fieldId);
        if (mode !== 'only' && (ids.includes(fieldId) || (mode === 'focus' && ids.length > 1))) return ids;
        return ids.length === 1 && ids[0] === fieldId ? ids : [fieldId];
      });
      const field = latestFields.current.find((each) => each.id === fieldId);
      // What is printed on its page is read now, before a drag needs it.
      if (field && snap) printed.request(field.page);
    },
    [latestFields, printed, snap],
  );
  const snapper = useCallback<Snapper>(
    (fieldId, rect, handle, threshold) => {
      const field = latestFields.current.find((each) => each.id === fieldId);
      const size = field && sizeOf(field.page);
      if (!field || !size) return { rect, guides: [] };
      printed.request(field.page);
      const { snap: geometry, lines } = printed.current(field.page);
      if (!geometry) return { rect, guides: [] };
      // The other selected fields move along with it: they are not lines to snap to.
      const moving = latestSelected.current.includes(fieldId) ? latestSelected.current : [fieldId];
      const others = latestFields.current.filter((each) => each.page === field.page && !moving.includes(each.id));
      return geometry.snapRect({ rect, handle, size, printed: lines, fields: geometry.fieldLines(others, size), threshold });
    },
    [latestFields, latestSelected, sizeOf, printed],
  );

  const place = useCallback(
    (type: FieldType, page: number, centre: { x: number; y: number }) => {
      const size = sizeOf(page);
      if (!size || readOnly) return;
      const field = newField({ type, page, centre, size, fields: latestFields.current, label: typeName(messages, type), optionLabel: messages.option, signerId: placeFor });
      edit([...latestFields.current, field]);
      setSelectedIds([field.id]);
      setFocusId(field.id);
      setAnnouncement(fill(messages.fieldAdded, { label: field.label }));
    },
    [sizeOf, readOnly, latestFields, messages, placeFor, edit],
  );
  const onDrop = useCallback((type: FieldType, drop: Drop) => place(type, drop.page, drop), [place]);
  const onPlace = useCallback((type: FieldType) => {
    const current = currentPage(rootRef.current);
    if (current) place(type, current.page, current.centre);
  }, [place]);

  const { clipboard, selectedFields, removeFields, remove, copy, paste, duplicate, duplicateToPages, setSigner, onShortcut } = useSelectionActions({
    latestFields,
    latestSelected,
    setSelectedIds,
    setFocusId,
    setAnnouncement,
    edit,
    undo: (redo) => dispatch({ type: redo ? 'redo' : 'undo' }),
    sizeOf,
    pageCount: pages.length,
    readOnly,
    messages,
    rootRef,
  });

  /** The fields a drag of `fieldId` moves: the selection it is in, or itself. */
  const actedOn = useCallback(
    (fieldId: string) => (latestSelected.current.includes(fieldId) ? latestSelected.current : [fieldId]),
    [latestSelected],
  );
  const onRect = useCallback(
    (fieldId: string, rect: FieldRect) => {
      const field = latestFields.current.find((each) => each.id === fieldId);
      const size = field && sizeOf(field.page);
      if (!field || !size) return;
      const ids = actedOn(fieldId);
      // A field moved with others selected: they all move by as much (one step of undo, one save).
      if (ids.length > 1) edit(moveGroup(latestFields.current, ids, (rect.x - field.x) * size.width, (rect.y - field.y) * size.height, sizeOf));
      else replace({ ...field, ...rect });
    },
    [latestFields, sizeOf, actedOn, edit, replace],
  );
  // While one of several selected fields is dragged the others follow it on screen (no re-render of the pages).
  const onDrag = useCallback(
    (fieldId: string, rect: FieldRect | null) => {
      const ids = latestSelected.current;
      const field = latestFields.current.find((each) => each.id === fieldId);
      const size = field && sizeOf(field.page);
      if (ids.length < 2 || !ids.includes(fieldId) || !field || !size) return;
      const moving = selectedFields();
      const [dx, dy] = rect ? groupDelta(moving, (rect.x - field.x) * size.width, (rect.y - field.y) * size.height, sizeOf) : [0, 0];
      for (const other of moving) {
        const box = rootRef.current?.querySelector<HTMLElement>(`[data-field-id="${CSS.escape(other.id)}"]`);
        const page = box?.closest<HTMLElement>('.signet-page');
        const otherSize = sizeOf(other.page);
        if (!box || !page || !otherSize || other.id === fieldId) continue;
        box.style.transform = rect ? `translate(${(dx / otherSize.width) * page.clientWidth}px, ${(dy / otherSize.height) * page.clientHeight}px)` : '';
      }
    },
    [latestSelected, latestFields, sizeOf, selectedFields],
  );
  const onFieldKey = useCallback(
    (field: FieldDefinition, event: KeyboardEvent<HTMLButtonElement>) => {
      if (readOnly) return;
      const arrow = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
      if (!arrow || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      const step = event.shiftKey ? STEP.large : STEP.small;
      const [dx, dy] = [arrow[0]! * step, arrow[1]! * step];
      // Keys act on the selection (focus may rest on a field outside a selection of several), else on the field.
      const chosen = selectedFields().map((each) => each.id);
      const ids = chosen.length > 0 ? chosen : [field.id];
      const list = latestFields.current;
      if (!event.altKey) edit(moveGroup(list, ids, dx, dy, sizeOf));
      else {
        const resize = (each: FieldDefinition) => {
          const size = sizeOf(each.page);
          return ids.includes(each.id) && size ? resizeBy(each, dx, dy, size) : each;
        };
        edit(list.map(resize));
      }
    },
    [readOnly, selectedFields, latestFields, sizeOf, edit],
  );

  // Fields gone by undo or a reload leave the selection (an id used again later is not selected by it).
  useEffect(() => {
    setSelectedIds((ids) => {
      const kept = ids.filter((id) => fields.some((field) => field.id === id));
      return kept.length === ids.length ? ids : kept;
    });
  }, [fields]);

  // A placed field takes the focus once its box is on the page, so that arrow keys move it at once.
  useEffect(() => {
    if (!focusId) return;
    const button = rootRef.current?.querySelector<HTMLElement>(`[data-field-id="${CSS.escape(focusId)}"] > button`);
    if (button) {
      button.focus();
      setFocusId(null);
    }
  });

  const fieldsByPage = useMemo(() => {
    const byPage = new Map<number, FieldDefinition[]>();
    for (const field of fields) byPage.set(field.page, [...(byPage.get(field.page) ?? []), field]);
    return byPage;
  }, [fields]);
  const pinned = useMemo(() => new Set(fieldsByPage.keys()), [fieldsByPage]);
  const renderOverlay = useCallback(
    (page: PageGeometry) => {
      const own = fieldsByPage.get(page.pageNumber);
      if (!own) return null;
      return (
        <div className="signet-builder-layer">
          {own.map((field) => {
            const signer = signers.offered.find((each) => each.id === field.signerId)?.name;
            const type = typeName(messages, field.type);
            return (
              <FieldBox
                key={field.id}
                field={field}
                size={page}
                selected={selectedIds.includes(field.id)}
                handles={selectedIds.length === 1 && selectedIds[0] === field.id}
                readOnly={readOnly}
                name={fill(messages.fieldName, { label: field.label || type, type, page: field.page })}
                text={signer ? `${field.label || type} · ${signer}` : field.label || type}
                colour={(field.signerId && signers.colours.get(field.signerId)) || SIGNER_COLOURS[0]}
                helpId={`${helpId} ${selectionHelpId}`}
                onSelect={select}
                onRect={onRect}
                onDrag={onDrag}
                onKeyDown={onFieldKey}
                snap={snap ? snapper : undefined}
              />
            );
          })}
        </div>
      );
    },
    [fieldsByPage, signers, messages, selectedIds, readOnly, helpId, selectionHelpId, onRect, onDrag, onFieldKey, select, snap, snapper],
  );

  const reload = useCallback(async () => {
    try {
      const fresh = await client.getDraft(draft.id);
      const freshSigners = { list: signersFromDraft(fresh.signers), signingOrder: fresh.signingOrder };
      autosave.loaded({ version: fresh.version, fields: fresh.fields, signers: freshSigners.list, signingOrder: freshSigners.signingOrder });
      setSignerState(freshSigners);
      setLoaded(fresh);
      dispatch({ type: 'reset', fields: fresh.fields });
      reported.current = fresh.fields;
      setSelectedIds([]);
      setNotice(null);
    } catch (error) {
      events.current.onError?.(error as Error);
    }
  }, [client, draft.id, autosave, events]);

  const send = useCallback(async () => {
    setSending(true);
    setNotice(null);
    try {
      await autosave.flush();
      if (autosave.unsaved()) return;
      const document: ManagedDocument = await client.sendDocument(draft.id, { version: autosave.version.current });
      setNotice({ kind: 'sent' });
      setLoaded((current) => ({ ...current, status: document.status as Draft['status'] }));
      events.current.onSend?.(document);
    } catch (error) {
      const failure = error as Error;
      if (failure instanceof SigningApiError && failure.details?.problems) {
        const { list, signingOrder } = latestSigners.current;
        setNotice({ kind: 'problems', items: sendProblems(failure.details.problems, toSaved(latestFields.current, list, signingOrder).fields, list) });
      } else if (failure instanceof SigningApiError && failure.status === 403) setNotice({ kind: 'send-refused' });
      else setNotice({ kind: 'send-failed', error: failure });
      events.current.onError?.(failure);
    } finally {
      setSending(false);
    }
  }, [autosave, client, draft.id, events, toSaved, latestFields, latestSigners]);

  const selection = fields.filter((field) => selectedIds.includes(field.id));
  const selected = selection.length === 1 ? selection[0] : undefined;
  const state = autosave.state;
  const saveText =
    state.status === 'saving' ? messages.saving : state.status === 'pending' ? messages.unsaved : state.status === 'failed' ? messages.saveFailed : state.status === 'saved' ? messages.saved : '';

  return (
    <div ref={rootRef} className="signet-builder-frame" onKeyDown={onShortcut} style={{ display: 'contents' }}>
      <div className="signet-toolbar signet-builder-toolbar">
        <span className="signet-title" title={loaded.filename}>
          {loaded.filename}
        </span>
        <span className="signet-builder-save" data-state={state.status} role="status">
          {saveText}
        </span>
        <ZoomControls zoom={zoom} onZoomChange={setZoom} labels={{ zoomIn: messages.zoomIn, zoomOut: messages.zoomOut, fitWidth: messages.fitWidth, value: messages.zoomValue }} />
        <button type="button" className="signet-icon-button" onClick={() => dispatch({ type: 'undo' })} disabled={readOnly || history.past.length === 0} aria-keyshortcuts="Control+Z Meta+Z">
          {messages.undo}
        </button>
        <button type="button" className="signet-icon-button" onClick={() => dispatch({ type: 'redo' })} disabled={readOnly || history.future.length === 0} aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z">
          {messages.redo}
        </button>
        {allowSend ? (
          <button type="button" className="signet-button signet-button--primary" onClick={() => void send()} disabled={sending || readOnly}>
            {sending ? messages.sending : messages.send}
          </button>
        ) : null}
      </div>
      <div className="signet-builder-body">
        <Palette
          types={paletteTypes(props.fieldTypes)}
          messages={messages}
          disabled={readOnly || (onPreview && !preview)}
          signers={signers.offered}
          signerId={placeFor}
          onSignerChange={setPlaceFor}
          onPlace={onPlace}
          onDrop={onDrop}
        />
        <div className="signet-builder-centre">
          {state.status === 'conflict' ? (
            <StatusPanel
              tone="error"
              title={messages.conflictTitle}
              action={
                <button type="button" className="signet-button signet-button--secondary" onClick={() => void reload()}>
                  {messages.reload}
                </button>
              }
            >
              {fill(messages.conflictBody, { version: state.currentVersion ?? '?' })}
            </StatusPanel>
          ) : notice ? (
            <NoticePanel notice={notice} messages={messages} />
          ) : loaded.status !== 'draft' ? (
            <StatusPanel tone="info" title={messages.notDraft} />
          ) : null}
          {pdfError ? (
            <StatusPanel tone="error" title={messages.loadFailed} />
          ) : pdf && pages.length > 0 ? (
            <PdfPages
              pdf={pdf}
              pages={pages}
              zoom={zoom}
              renderOverlay={renderOverlay}
              pinnedPages={pinned}
              firstPagePreview={preview}
              label={messages.pages}
              pageLabel={(page) => fill(messages.pageLabel, { page })}
            />
          ) : preview ? (
            <>
              <LoadProgress progress={progress} label={messages.loading} className="signet-progress--top" />
              <PreviewPage preview={preview} zoom={zoom} renderOverlay={renderOverlay} />
            </>
          ) : (
            <div className="signet-loading">
              <LoadProgress progress={progress} label={messages.loading} />
            </div>
          )}
        </div>
        <div className="signet-builder-side-column">
          <PropertiesPanel
            field={selected}
            size={selected ? sizeOf(selected.page) : undefined}
            messages={messages}
            readOnly={readOnly}
            signers={signers.offered}
            fields={fields}
            onChange={replace}
            onRename={rename}
            onDelete={remove}
            several={selection.length > 1}
            actions={
              <SelectionActions
                selection={selection}
                canPaste={clipboard.length > 0}
                pageCount={pages.length}
                messages={messages}
                readOnly={readOnly}
                signers={signers.offered}
                onCopy={copy}
                onPaste={paste}
                onDuplicate={duplicate}
                onEveryPage={duplicateToPages}
                onDelete={() => removeFields(selection)}
                onSigner={setSigner}
              />
            }
          />
          <Suspense fallback={null}>
            <SignersPanel
              signers={signerState.list}
              signingOrder={signerState.signingOrder}
              colours={signers.colours}
              fieldCounts={signerFields}
              messages={messages}
              readOnly={readOnly}
              withEmail={!isTemplate(draft.id)}
              onChange={changeSigners}
              onAnnounce={setAnnouncement}
            />
          </Suspense>
        </div>
      </div>
      <p id={helpId} className="signet-visually-hidden">
        {messages.fieldHelp}
      </p>
      <p id={selectionHelpId} className="signet-visually-hidden">
        {messages.selectionHelp}
      </p>
      <p className="signet-visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  );
}

function NoticePanel({ notice, messages }: { notice: NonNullable<Notice>; messages: BuilderMessages }) {
  switch (notice.kind) {
    case 'problems':
      return (
        <StatusPanel tone="error" title={messages.problemsTitle}>
          <ul className="signet-problems">
            {notice.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </StatusPanel>
      );
    case 'send-refused':
      return <StatusPanel tone="error" title={messages.sendRefused} />;
    case 'send-failed':
      return <StatusPanel tone="error" title={messages.sendFailed}>{notice.error.message}</StatusPanel>;
    case 'sent':
      return <StatusPanel tone="success" title={messages.sentTitle}>{messages.sentBody}</StatusPanel>;
  }
}

/**
 * Page 1's size in points as its preview gives it (its pixels over the preview's pixels a point): the size fields
 * are placed with before pdf.js has the page, within a fraction of a point of the page's own.
 */
function previewGeometry(preview: PagePreview | null): PageGeometry | undefined {
  return preview ? { pageNumber: 1, width: preview.width / PREVIEW_PIXELS_PER_POINT, height: preview.height / PREVIEW_PIXELS_PER_POINT, rotation: 0 } : undefined;
}

/** Whether the builder edits a template (docs/templates.md): its roles have no e-mail addresses. */
function isTemplate(id: string): boolean {
  return id.startsWith('tpl_');
}
