import type { FieldDefinition } from '@signet/contract';
import { useCallback, useEffect, useLayoutEffect, useMemo, useState, type RefObject } from 'react';
import { useLatest } from '../useLatest.js';
import { revealInScroller } from './reveal.js';
import type { StepPanel as StepPanelComponent } from './StepPanel.js';

/**
 * Below these widths (CSS px) of the viewer, fields are filled in the step panel rather than on the page: at
 * fit-to-width a form's fields are then under WCAG 2.2's 24 px target size. Under 480 px (every phone upright) always;
 * under 600 px only with a coarse primary pointer (a finger, not a mouse on a narrow column of a desktop page).
 */
export const NARROW_WIDTH = { any: 480, touch: 600 } as const;

// The panel's code is fetched once a viewer turns out to be narrow, before anyone taps: a wide viewer never loads it.
let loading: Promise<typeof StepPanelComponent> | undefined;
const loadPanel = () => (loading ??= import('./StepPanel.js').then((module) => module.StepPanel));

/**
 * The phone's step-by-step panel: whether the viewer is narrow (its pages area under {@link NARROW_WIDTH}, measured on
 * the element, not the window, as the viewer may be embedded in a shadow root or a column), which of `steps` is open,
 * and the page kept scrolled so that the open field stays visible above the panel.
 * `show(fieldId)` opens the panel at a field and answers whether it did (never on a wide viewer, nor for a field
 * that is not a step), so that the caller falls back to focusing the field on the page.
 * @example
 * const steps = useStepPanel(areaRef, editableFields, missingIds);
 * if (!steps.show(field.id)) focusField(field.id);
 * {steps.current && steps.Panel && <steps.Panel field={steps.current} … onNext={steps.forward} />}
 */
export function useStepPanel(area: RefObject<HTMLElement | null>, steps: readonly FieldDefinition[], missing: ReadonlySet<string>) {
  const [narrow, setNarrow] = useState(false);
  const [Panel, setPanel] = useState<typeof StepPanelComponent | null>(null);
  const [currentId, setCurrentId] = useState<string | null>(null);

  useLayoutEffect(() => {
    const element = area.current;
    if (!element) return;
    const touch = globalThis.matchMedia?.('(pointer: coarse)').matches;
    const measure = () => {
      const width = element.clientWidth;
      setNarrow(width > 0 && width < (touch ? NARROW_WIDTH.touch : NARROW_WIDTH.any));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [area]);

  useEffect(() => {
    if (!narrow) return;
    let live = true;
    // A failed load leaves the fields on the page, as on a wide viewer.
    loadPanel().then((component) => live && setPanel(() => component), () => undefined);
    return () => {
      live = false;
    };
  }, [narrow]);

  const index = narrow && Panel ? steps.findIndex((field) => field.id === currentId) : -1;
  const current = index >= 0 ? steps[index]! : null;

  // The open field, marked, and kept in view whenever the space above the panel changes (the panel opens, grows, the phone turns).
  useLayoutEffect(() => {
    const field = current && fieldElement(area.current, current.id)?.closest<HTMLElement>('.signet-field');
    const scroller = field?.closest<HTMLElement>('.signet-pages');
    if (!field || !scroller) return;
    const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const observer = new ResizeObserver(() => revealInScroller(field, scroller, { behavior: reduced ? 'auto' : 'smooth' }));
    observer.observe(scroller);
    // Marked on the page too, so that the signer sees which of its fields the panel fills in.
    field.dataset.signetCurrent = '';
    return () => {
      observer.disconnect();
      delete field.dataset.signetCurrent;
    };
  }, [current, area]);

  const latest = useLatest({ steps, missing, index, current, usable: narrow && Panel !== null });
  const show = useCallback(
    (fieldId: string) => {
      const { usable, steps } = latest.current;
      if (!usable || !steps.some((field) => field.id === fieldId)) return false;
      setCurrentId(fieldId);
      return true;
    },
    [latest],
  );
  /** The step after the open one; after the last, the first required step still missing a value, if any. */
  const forward = useCallback(() => {
    const { steps, missing, index } = latest.current;
    const after = steps[index + 1] ?? steps.find((field) => missing.has(field.id));
    if (after) setCurrentId(after.id);
  }, [latest]);
  const back = useCallback(() => {
    const { steps, index } = latest.current;
    if (index > 0) setCurrentId(steps[index - 1]!.id);
  }, [latest]);
  /** Closes the panel and gives the focus back to the field on the page. */
  const close = useCallback(() => {
    const open = latest.current.current;
    setCurrentId(null);
    if (open) fieldElement(area.current, open.id)?.focus({ preventScroll: true });
  }, [area, latest]);

  return useMemo(
    () => ({ narrow, Panel, current, index, total: steps.length, show, forward, back, close }),
    [narrow, Panel, current, index, steps.length, show, forward, back, close],
  );
}

function fieldElement(area: HTMLElement | null, fieldId: string): HTMLElement | null {
  return area?.querySelector<HTMLElement>(`[data-signet-field="${CSS.escape(fieldId)}"]`) ?? null;
}
