import type { FieldDefinition, FieldValue } from '@signet/contract';
import { useId, useLayoutEffect, useRef } from 'react';
import { tabbable } from 'tabbable';
import { FieldInput } from '../fields/FieldInput.js';
import { format, signatureDialogLabels, type ViewerMessages } from '../i18n/messages.js';
import { InlineSignature } from './InlineSignature.js';

export interface StepPanelProps {
  field: FieldDefinition;
  /** The field's place among the steps (from 0), and how many there are. */
  index: number;
  total: number;
  value: FieldValue | undefined;
  invalid: boolean;
  /** What the value breaks of the field's rules, in words (said in place of "Needs your attention"). */
  problem?: string | undefined;
  messages: ViewerMessages;
  /** The Type tab's prefill: the signer's name, or its initials for an initials field. */
  initialName: string;
  /** Every required field has a value: the last step offers Submit in place of Next. */
  complete: boolean;
  submitting: boolean;
  /** Submit cannot be pressed yet (pages still being measured, a submission under way). */
  submitDisabled: boolean;
  onChange(value: FieldValue): void;
  onPrevious(): void;
  onNext(): void;
  onSubmit(): void;
  onClose(): void;
}

/**
 * The phone's step-by-step panel at the bottom of the viewer: one field at a time, its label as the heading, its
 * control at full size (16 px text, so that iOS does not zoom), a signature drawn or typed right there, Previous and
 * Next, "n of m" and Done. The control is the page's own (`FieldInput`), bound to the same value, so what is entered
 * in one shows in the other. The field's control takes the focus whenever the step changes.
 * @example
 * <StepPanel field={field} index={1} total={6} value={values[field.id]} invalid={false}
 *   messages={messages} initialName="Ada Lovelace" complete={false} submitting={false} submitDisabled={false}
 *   onChange={(value) => change(field.id, value)} onPrevious={back} onNext={forward} onSubmit={submit} onClose={close} />
 */
export function StepPanel(props: StepPanelProps) {
  const { field, index, total, value, invalid, messages, onChange } = props;
  const id = useId();
  const body = useRef<HTMLDivElement>(null);
  const forward = useRef<HTMLButtonElement>(null);
  const section = useRef<HTMLElement>(null);

  useLayoutEffect(() => {
    section.current?.scrollIntoView({ block: 'nearest' });
    const first = body.current && tabbable(body.current)[0];
    first?.focus({ preventScroll: true });
  }, [field.id]);

  const hint = [field.required ? messages.required : '', invalid ? (props.problem ?? messages.invalidField) : ''].filter(Boolean).join('. ');
  const hintId = hint ? `${id}-hint` : undefined;
  const signing = field.type === 'signature' || field.type === 'initials';
  const control = signing ? (
    <InlineSignature
      key={field.id}
      kind={field.type === 'initials' ? 'initials' : 'signature'}
      image={(value?.type === 'signature' || value?.type === 'initials') && value.type === field.type ? value.imageData : undefined}
      initialName={props.initialName}
      labels={signatureDialogLabels(messages, field.type === 'initials' ? 'initials' : 'signature')}
      changeLabel={messages.changeSignature}
      describedBy={hintId}
      onApply={(imageData) => {
        onChange({ type: field.type as 'signature' | 'initials', imageData });
        // The pad goes away with Apply: the signer continues from Next.
        forward.current?.focus({ preventScroll: true });
      }}
    />
  ) : (
    <FieldInput
      field={field}
      value={value}
      invalid={invalid}
      readOnly={false}
      // The panel's control is not sized like the PDF's text: no page geometry.
      pageHeight={0}
      cssScale={1}
      messages={messages}
      describedBy={hintId}
      variant="panel"
      onChange={onChange}
      onSign={() => undefined}
    />
  );
  const submitHere = props.complete && index === total - 1;

  return (
    <section
      ref={section}
      className="signet-steps"
      aria-labelledby={`${id}-title ${id}-count`}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.nativeEvent.isComposing) props.onClose();
      }}
    >
      <div className="signet-steps-head">
        <span id={`${id}-count`} className="signet-steps-count">
          {format(messages.stepCount, { n: index + 1, m: total })}
        </span>
        <button type="button" className="signet-button signet-button--secondary signet-steps-done" onClick={props.onClose}>
          {messages.closeSteps}
        </button>
      </div>
      <div ref={body} className="signet-steps-body" data-type={field.type}>
        <h2 id={`${id}-title`} className="signet-steps-title">
          {field.label}
        </h2>
        {hint && (
          <p id={hintId} className="signet-steps-hint" data-invalid={invalid || undefined}>
            {hint}
          </p>
        )}
        {/* A checkbox's row is its label, so the whole width toggles it, not the box alone. */}
        {field.type === 'checkbox' ? <label className="signet-steps-check">{control}</label> : control}
      </div>
      <div className="signet-steps-nav">
        <button type="button" className="signet-button signet-button--secondary" disabled={index === 0} onClick={props.onPrevious}>
          {messages.previousField}
        </button>
        <button
          ref={forward}
          type="button"
          className={`signet-button ${submitHere ? 'signet-button--primary' : 'signet-button--secondary'}`}
          disabled={submitHere && props.submitDisabled}
          onClick={submitHere ? props.onSubmit : props.onNext}
        >
          {submitHere ? (props.submitting ? messages.submitting : messages.submit) : messages.next}
        </button>
      </div>
    </section>
  );
}
