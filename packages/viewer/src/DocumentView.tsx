import { SigningApiError, missingRequiredFields, type SdkClient } from '@signet/api';
import {
  documentPreviewUrl,
  type DeclineResult,
  type FieldDefinition,
  type FieldValue,
  type SdkDocument,
  type SubmissionResult,
  type TextStyle,
  fieldValueProblem,
  isTypedText,
} from '@signet/contract';
import type { QueryKey } from '@tanstack/react-query';
import { Suspense, lazy, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { fieldsNamedBy, reportFailure, unavailableReason, type UnavailableReason } from './error-message.js';
import { UnavailablePanel } from './UnavailablePanel.js';
import { pageInfo, readingOrder, textStyle } from './fields/field-geometry.js';
import { FieldLayer } from './fields/FieldLayer.js';
import { LayerSlot, trackFocus, type LayerGeometry } from './fields/LayerSlot.js';
import { GuidanceBar } from './GuidanceBar.js';
import { useTranslator } from './i18n/LocaleContext.js';
import { format, signatureDialogLabels, type ViewerMessages } from './i18n/messages.js';
import { LoadProgress } from './Page/LoadProgress.js';
import { PdfPages } from './Page/PdfPages.js';
import { PreviewPage } from './Page/PreviewPage.js';
import { usePagePreview } from './Page/usePagePreview.js';
import { ZoomControls } from './Page/ZoomControls.js';
import type { PageGeometry } from './pdf/page-geometry.js';
import { usePdfDocument } from './pdf/usePdfDocument.js';
import { LazySignatureDialog, prefetchSignatureDialog } from './signature/LazySignatureDialog.js';
import { useStepPanel } from './steps/useStepPanel.js';
import { problemMessage } from './fields/problem-message.js';
import type { SignedCopyPolling } from './signed-copy/poll-schedule.js';
import { SignedCopyPreparing } from './signed-copy/SignedCopyPreparing.js';
import { StatusPanel } from './StatusPanel.js';
import { useLatest } from './useLatest.js';
import { useSubmit } from './useSubmit.js';
import { DeclineForm } from './DeclineForm.js';

// Shown only once the document is completed, while the server seals it: a chunk of its own, off the startup path.
const SignedCopy = lazy(() => import('./signed-copy/SignedCopy.js').then((module) => ({ default: module.SignedCopy })));

export interface DocumentViewProps {
  client: SdkClient;
  document: SdkDocument;
  messages: ViewerMessages;
  /** The document's key among the host's queries (its signed copy's query is under it). */
  queryKey: QueryKey;
  signedCopyPolling?: SignedCopyPolling;
  onReady?(document: SdkDocument): void;
  onFieldChange?(fieldId: string, value: FieldValue): void;
  onComplete?(result: SubmissionResult): void;
  onDecline?(result: DeclineResult): void;
  onSealed?(signedDocumentUrl: string): void;
  onUnavailable?(reason: UnavailableReason): void;
  onError?(error: Error): void;
}

type Values = Readonly<Record<string, FieldValue | undefined>>;

/** The signing surface of a loaded document: pages, fields, guidance, the signature dialog and the submission. */
export function DocumentView({ client, document, messages, queryKey, signedCopyPolling, ...callbacks }: DocumentViewProps) {
  const events = useLatest(callbacks);
  const t = useTranslator();
  const { pdf, pages, pagesMeasured, progress, error: pdfError } = usePdfDocument(document.documentUrl);
  // Page 1 as the server rendered it, on screen while pdf.js boots and opens the file, then under page 1's canvas.
  const preview = usePagePreview(useMemo(() => documentPreviewUrl(document.documentUrl), [document.documentUrl]));
  const [values, setValues] = useState<Values>({});
  const [invalid, setInvalid] = useState<ReadonlySet<string>>(new Set());
  /** The fields the signer has been in and left: a value they break the rules of is pointed out from then on. */
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const [zoom, setZoom] = useState(1);
  /** CSS pixels per PDF point of the pages on screen: read only when submitting, so no state (and no render). */
  const cssScale = useRef(1);
  const [signing, setSigning] = useState<{ field: FieldDefinition; kind: 'signature' | 'initials'; trigger: HTMLButtonElement } | null>(null);
  const idPrefix = `signet${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  /** The field the signer was last in: Next continues after it, even once focus moved to the Next button. */
  const lastField = useRef<string | null>(null);
  const areaRef = useRef<HTMLDivElement>(null);
  const { mutation: submission, submittedFieldIds } = useSubmit(client, document);
  const result = submission.data;
  const signers = useSigners(document);
  const completed = Boolean(result) || document.metadata.status === 'completed' || signers.done;
  const [declining, setDeclining] = useState(false);
  const [declinedNow, setDeclinedNow] = useState(false);
  const submitRefusal = submission.error instanceof SigningApiError ? submission.error.details?.reason : undefined;
  // Declined here, before (on opening), or meanwhile elsewhere (a submission refused as declined).
  const declined = declinedNow || document.metadata.status === 'declined' || submitRefusal === 'declined';
  // Voided or expired meanwhile: a submission refused for it ends signing here too.
  const ended = completed || declined ? null : unavailableReason(submission.error);
  const locked = completed || declined || Boolean(ended) || signers.waitingFor.length > 0;

  // Page 1's fields are rendered once, into this element, which moves from the preview image to pdf.js's page: they
  // can be filled in before pdf.js is ready, and keep focus and what was typed when the page replaces the image.
  const [page1Layer] = useState(() => globalThis.document.createElement('div'));
  const [page1Geometry, setPage1Geometry] = useState<LayerGeometry | null>(null);
  useEffect(() => trackFocus(page1Layer), [page1Layer]);

  const ordered = useMemo(() => readingOrder(document.fields), [document.fields]);
  // With a session key of one of several signers, theirs are the fields to fill in; the others' are read-only.
  const own = useMemo(
    () => (document.signerId === undefined ? ordered : ordered.filter((field) => field.signerId === document.signerId)),
    [ordered, document.signerId],
  );
  const fieldsByPage = useMemo(() => {
    const byPage = new Map<number, FieldDefinition[]>();
    for (const field of ordered) {
      const onPage = byPage.get(field.page);
      if (onPage) onPage.push(field);
      else byPage.set(field.page, [field]);
    }
    return byPage;
  }, [ordered]);
  const required = own.filter((field) => field.required);
  // The server's own count: the required fields a submission of these values would leave without a value.
  const missing = useMemo(() => new Set(missingRequiredFields(document, values)), [document, values]);
  const incomplete = required.filter((field) => missing.has(field.id));
  // Values that break their field's rules, pointed out once the signer left the field or a submission named it.
  const problems = useMemo(
    () =>
      own.flatMap((field) => {
        const value = values[field.id];
        const problem = value && field.editable && !locked ? fieldValueProblem(field, value) : null;
        return problem && (left.has(field.id) || invalid.has(field.id)) ? [{ field, problem }] : [];
      }),
    [own, values, left, invalid, locked],
  );
  const flagged = useMemo(() => new Set([...invalid, ...problems.map(({ field }) => field.id)]), [invalid, problems]);
  const problemOf = (fieldId: string) => {
    const found = problems.find(({ field }) => field.id === fieldId);
    return found && problemMessage(found.problem, found.field, t);
  };
  // On a narrow viewer (a phone), a field tapped or reached with Next is filled in the step panel under the pages.
  const editable = useMemo(() => (locked ? [] : own.filter((field) => field.editable)), [own, locked]);
  const steps = useStepPanel(areaRef, editable, missing);
  // A step of the phone's panel the signer moved on from is a field they left, as Tab from a field on the page is.
  const stepField = steps.current?.id;
  const previousStep = useRef(stepField);
  useEffect(() => {
    const previous = previousStep.current;
    previousStep.current = stepField;
    if (previous && previous !== stepField) setLeft((current) => (current.has(previous) ? current : new Set([...current, previous])));
  }, [stepField]);

  const ready = Boolean(pdf && pages.length > 0);
  useEffect(() => {
    if (ready) events.current.onReady?.(document);
    if (ready) prefetchSignatureDialog();
  }, [ready, document, events]);
  useEffect(() => {
    if (pdfError) events.current.onError?.(pdfError);
  }, [pdfError, events]);

  const focusField = useCallback((fieldId: string) => {
    const element = areaRef.current?.querySelector<HTMLElement>(`[data-signet-field="${CSS.escape(fieldId)}"]`);
    if (!element) return;
    element.scrollIntoView({ block: 'center', behavior: 'smooth' });
    element.focus({ preventScroll: true });
  }, []);

  const change = useCallback(
    (fieldId: string, value: FieldValue) => {
      setValues((current) => ({ ...current, [fieldId]: value }));
      setInvalid((current) => (current.has(fieldId) ? new Set([...current].filter((id) => id !== fieldId)) : current));
      events.current.onFieldChange?.(fieldId, value);
    },
    [events],
  );
  const openDialog = useCallback(
    (field: FieldDefinition, trigger: HTMLButtonElement) => {
      if (!steps.show(field.id)) setSigning({ field, kind: field.type === 'initials' ? 'initials' : 'signature', trigger });
    },
    [steps.show],
  );

  // The fields' own focus and blur, caught on their way down to them, not React's onFocus/onBlur: those are focusin and
  // focusout, which WebKit does not fire for a date input (its segments hold the focus).
  useEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    const focus = (event: FocusEvent) => {
      const fieldId = (event.target as HTMLElement).dataset?.signetField;
      if (fieldId) lastField.current = fieldId;
    };
    const blur = (event: FocusEvent) => {
      // Leaving a field's box (not moving between a radio group's options) is leaving the field.
      const box = (event.target as Element).closest?.<HTMLElement>('[data-signet-field-box]');
      const fieldId = box?.dataset.signetFieldBox;
      if (!fieldId || box.contains(event.relatedTarget as Node | null)) return;
      setLeft((current) => (current.has(fieldId) ? current : new Set([...current, fieldId])));
    };
    area.addEventListener('focus', focus, true);
    area.addEventListener('blur', blur, true);
    return () => {
      area.removeEventListener('focus', focus, true);
      area.removeEventListener('blur', blur, true);
    };
  }, []);

  /** The next incomplete required field after the one that has focus, wrapping around. */
  const next = () => {
    const focused = (globalThis.document.activeElement as HTMLElement | null)?.dataset?.signetField ?? lastField.current;
    const position = focused ? ordered.findIndex((field) => field.id === focused) : -1;
    const after = incomplete.find((field) => ordered.indexOf(field) > position) ?? incomplete[0];
    if (after && !steps.show(after.id)) focusField(after.id);
  };

  const submit = () => {
    // Every page's real size goes into the payload: wait until the last ones are measured.
    if (!pagesMeasured || incomplete.length > 0) return;
    const area = areaRef.current;
    const textStyles: Record<string, TextStyle> = {};
    for (const field of ordered) {
      const page = pages[field.page - 1];
      if (isTypedText(field.type) && page) textStyles[field.id] = textStyle(field, page.height);
    }
    submission.mutate(
      {
        values,
        renderContext: {
          scale: cssScale.current,
          viewportWidth: area?.clientWidth ?? globalThis.innerWidth,
          viewportHeight: area?.clientHeight ?? globalThis.innerHeight,
          devicePixelRatio: globalThis.devicePixelRatio || 1,
        },
        pages: pages.map(pageInfo),
        textStyles,
      },
      {
        onSuccess: (submitted) => {
          const { payload: _payload, ...answer } = submitted;
          events.current.onComplete?.(answer);
        },
        onError: (failure) => {
          const named = fieldsNamedBy(failure, submittedFieldIds());
          if (named.length > 0) {
            setInvalid(new Set(named));
            if (!steps.show(named[0]!)) focusField(named[0]!);
          }
          reportFailure(failure, events.current);
        },
      },
    );
  };

  // A page's fields over it, `pageHeight` points high at `cssScale` CSS pixels a point.
  const fieldLayer = useCallback(
    (fields: FieldDefinition[], pageHeight: number, cssScale: number) => (
      <FieldLayer
        fields={fields}
        values={values}
        invalid={flagged}
        completed={locked}
        ownerOf={signers.ownerOf}
        pageHeight={pageHeight}
        cssScale={cssScale}
        messages={messages}
        idPrefix={idPrefix}
        onChange={change}
        onSign={openDialog}
      />
    ),
    [values, flagged, locked, signers.ownerOf, messages, idPrefix, change, openDialog],
  );

  // Their boxes stay mounted when scrolled far away, so that Tab and Next reach every field.
  const pagesWithFields = useMemo(() => new Set(fieldsByPage.keys()), [fieldsByPage]);
  // Stable between renders that change nothing on the pages, so the page list does not re-render every box; pages
  // without fields get no layer.
  const renderOverlay = useCallback(
    (page: PageGeometry, scale: number) => {
      const fields = fieldsByPage.get(page.pageNumber);
      if (!fields) return null;
      if (page.pageNumber === 1) {
        return <LayerSlot element={page1Layer} geometry={{ pageHeight: page.height, cssScale: scale }} onGeometry={setPage1Geometry} />;
      }
      return fieldLayer(fields, page.height, scale);
    },
    [fieldsByPage, fieldLayer, page1Layer],
  );
  const page1Fields = fieldsByPage.get(1);

  const submitError = submission.error;
  const namedFields = submitError ? fieldsNamedBy(submitError, submittedFieldIds()) : [];
  // Sequential order: refused because an earlier signer has not signed (another tab may have been faster to look).
  const turnRefused = submitRefusal === 'not_your_turn';
  const waitingFor = turnRefused ? signers.namesOf((submitError as SigningApiError).details?.waitingFor) : signers.waitingFor;
  // The dialog's Type tab starts with the name the signer typed into the first text field (or its initials).
  const firstText = own.find((field) => field.type === 'text' && field.editable);
  const nameValue = firstText ? values[firstText.id] : undefined;
  const typedName = nameValue?.type === 'text' ? nameValue.content : '';

  return (
    <>
      <div className="signet-toolbar">
        <span className="signet-title" title={document.metadata.filename}>
          {document.metadata.filename}
        </span>
        {!locked && !declining && (
          <button type="button" className="signet-button signet-button--secondary" onClick={() => setDeclining(true)}>
            {messages.decline}
          </button>
        )}
        <ZoomControls zoom={zoom} onZoomChange={setZoom} labels={{ zoomIn: messages.zoomIn, zoomOut: messages.zoomOut, fitWidth: messages.fitWidth, value: messages.zoomValue }} />
      </div>
      {/*
        One live region, there from the first render, holds the signed and declined states: each is said once, as
        its panel appears in it (a region inserted with its content is not reliably announced). A failed
        submission is an alert of its own; progress is the guidance bar's live text.
      */}
      <div className="signet-announcer" role="status" aria-live="polite">
        {steps.current && (
          <span className="signet-visually-hidden">{`${format(messages.stepCount, { n: steps.index + 1, m: steps.total })}: ${steps.current.label}`}</span>
        )}
        {completed && signers.othersPending.length > 0 && document.metadata.status !== 'completed' ? (
          <StatusPanel tone="success" live={false} title={result ? messages.completedTitle : messages.alreadyCompletedTitle}>
            {format(messages.othersPendingBody, { names: t.list(signers.othersPending) })}
            {result && (
              <>
                {' '}
                <span className="signet-reference">
                  {messages.submissionReference}: <code>{result.submissionId}</code>
                </span>
              </>
            )}
          </StatusPanel>
        ) : completed && (
          <StatusPanel
            tone="success"
            live={false}
            title={result ? messages.completedTitle : messages.alreadyCompletedTitle}
            action={
              <Suspense fallback={<SignedCopyPreparing text={messages.signedCopyPreparing} />}>
                <SignedCopy
                  client={client}
                  document={document}
                  queryKey={[...queryKey, 'signed-copy']}
                  polling={signedCopyPolling}
                  messages={messages}
                  onSealed={(url) => events.current.onSealed?.(url)}
                />
              </Suspense>
            }
          >
            {result ? (
              <>
                {messages.completedBody}{' '}
                <span className="signet-reference">
                  {messages.submissionReference}: <code>{result.submissionId}</code>
                </span>
              </>
            ) : (
              messages.alreadyCompletedBody
            )}
          </StatusPanel>
        )}
        {declined && !completed && (
          <StatusPanel tone="info" live={false} title={messages.declinedTitle}>
            {messages.declinedBody}
          </StatusPanel>
        )}
      </div>
      {declining && !declined && (
        <DeclineForm
          messages={messages}
          onCancel={() => setDeclining(false)}
          onDecline={async (reason) => {
            const answer = await client.declineDocument(document.metadata.id, reason);
            setDeclinedNow(true);
            setDeclining(false);
            events.current.onDecline?.(answer);
          }}
        />
      )}
      {!completed && !declined && waitingFor.length > 0 && (
        <StatusPanel tone="info" title={messages.waitingTitle}>
          {format(messages.waitingBody, { names: t.list(waitingFor) })}
        </StatusPanel>
      )}
      {ended && <UnavailablePanel reason={ended} messages={messages} />}
      {submitError && !completed && !turnRefused && !declined && !ended && (
        <StatusPanel tone="error" title={namedFields.length > 0 ? messages.fixFields : messages.submitFailed}>
          {namedFields.length > 0 ? null : submitError.message}
        </StatusPanel>
      )}
      <div
        className="signet-pages-area"
        ref={areaRef}
        aria-label={messages.documentLabel}
        role="document"
        onClick={(event) => {
          const fieldId = (event.target as Element).closest<HTMLElement>('[data-signet-field]')?.dataset.signetField;
          if (fieldId) steps.show(fieldId);
        }}
      >
        {pdfError ? (
          <StatusPanel tone="error" title={messages.errorPdf} />
        ) : pdf && pages.length > 0 ? (
          <PdfPages
            pdf={pdf}
            pages={pages}
            zoom={zoom}
            onScaleChange={(scale) => (cssScale.current = scale)}
            renderOverlay={renderOverlay}
            pinnedPages={pagesWithFields}
            firstPagePreview={preview}
          />
        ) : preview ? (
          <>
            <LoadProgress progress={progress} label={messages.loadingPdf} className="signet-progress--top" />
            <PreviewPage preview={preview} zoom={zoom} renderOverlay={renderOverlay} />
          </>
        ) : (
          <div className="signet-loading">
            <LoadProgress progress={progress} label={messages.loadingPdf} />
          </div>
        )}
        {page1Fields && page1Geometry && createPortal(fieldLayer(page1Fields, page1Geometry.pageHeight, page1Geometry.cssScale), page1Layer)}
      </div>
      {steps.current && steps.Panel && (
        <steps.Panel
          field={steps.current}
          index={steps.index}
          total={steps.total}
          value={values[steps.current.id] ?? steps.current.value}
          invalid={flagged.has(steps.current.id)}
          problem={problemOf(steps.current.id)}
          messages={messages}
          initialName={steps.current.type === 'initials' ? initialsOf(typedName) : typedName}
          complete={incomplete.length === 0}
          submitting={submission.isPending}
          submitDisabled={submission.isPending || !pagesMeasured}
          onChange={(value) => change(steps.current!.id, value)}
          onPrevious={steps.back}
          onNext={steps.forward}
          onSubmit={submit}
          onClose={steps.close}
        />
      )}
      {!locked && !steps.current && (
        <GuidanceBar
          done={required.length - incomplete.length}
          total={required.length}
          submitting={submission.isPending}
          preparing={!pagesMeasured}
          messages={messages}
          problem={problems[0] && { label: problems[0].field.label, message: problemOf(problems[0].field.id)! }}
          onProblem={() => problems[0] && (steps.show(problems[0].field.id) || focusField(problems[0].field.id))}
          onNext={next}
          onSubmit={submit}
        />
      )}
      {signing && (
        <LazySignatureDialog
          open
          kind={signing.kind}
          fieldLabel={signing.field.label}
          initialName={signing.kind === 'initials' ? initialsOf(typedName) : typedName}
          labels={signatureDialogLabels(messages, signing.kind)}
          onCancel={() => {
            signing.trigger.focus();
            setSigning(null);
          }}
          onApply={(imageData) => {
            change(signing.field.id, { type: signing.kind, imageData });
            signing.trigger.focus();
            setSigning(null);
          }}
        />
      )}
    </>
  );
}

/**
 * A document's signers as this viewer's signer sees them (several signers, a session key): whose each other field
 * is, whom this signer waits for (sequential order), who has yet to sign besides them, and whether they are done.
 * Without a session key's `signerId`, every field is the signer's and nobody is waited for.
 */
function useSigners(document: SdkDocument) {
  const { signers: listed, signerId } = document;
  return useMemo(() => {
    const signers = listed ?? [];
    const names = new Map(signers.map((signer) => [signer.id, signer.name]));
    const me = signers.find((signer) => signer.id === signerId);
    const pending = (signer: { status: string }) => signer.status !== 'completed';
    return {
      done: me?.status === 'completed',
      waitingFor:
        me?.status === 'waiting' ? signers.filter((signer) => signer.order < me.order && pending(signer)).map((signer) => signer.name) : [],
      othersPending: signers.filter((signer) => signer.id !== signerId && pending(signer)).map((signer) => signer.name),
      namesOf: (ids: unknown) => (Array.isArray(ids) ? ids.map((id) => names.get(String(id)) ?? String(id)) : []),
      ownerOf: (field: FieldDefinition) =>
        signerId !== undefined && field.signerId !== undefined && field.signerId !== signerId ? (names.get(field.signerId) ?? field.signerId) : undefined,
    };
  }, [listed, signerId]);
}

/** "Ada Lovelace" → "AL". */
function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}
