import { fieldPattern, takesFontSize, type FieldDefinition } from '@signet/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useViewerStyles } from '../adopt-styles.js';
import { editorCss } from './editor-styles.js';
import { fill, type BuilderMessages } from './messages.js';
import { FONT_SIZE_BOUNDS, fieldIdProblem, LENGTH_BOUNDS, parseFontSize, parseRule, prefillKind, prefillOf, rulesOf, ruleText, TEXT_RULE_MAX, withFontSize, withPrefill, withRule, type Rule } from './property-rules.js';

/*
 * The properties panel's editors of a field's id, read-only flag, prefill and validation rules: a chunk of their own
 * (`PropertiesPanel.tsx` loads it). What is typed and cannot be saved is said beside its input and not applied.
 */

/** Says beside an input why what was typed is not applied (or, for a pattern, what sending will say). */
function Problem({ id, text }: { id: string; text: string | null }) {
  return text ? (
    <span id={id} className="signet-builder-problem">
      {text}
    </span>
  ) : null;
}

/**
 * What a property's input shows: the text as typed while it says what the field holds (`written`: `normalise` of the
 * text, or null when the text is not a value), else what the field holds: another field was selected (`key`), or the
 * value changed from outside (an undo).
 */
function useTypedText(written: string, normalise: (text: string) => string | null, key: string) {
  const [typed, setTyped] = useState(written);
  const latestNormalise = useRef(normalise);
  latestNormalise.current = normalise;
  useEffect(() => {
    setTyped((text) => (latestNormalise.current(text) === written ? text : written));
  }, [key, written]);
  return [typed, setTyped] as const;
}

/** A parsed rule or font size as the field holds it: '' for none, null when the text is not a value. */
const heldText = (parsed: { value: string | number | undefined } | { problem: string }) =>
  'value' in parsed ? (parsed.value === undefined ? '' : String(parsed.value)) : null;

/** The field's id: applied as typed while it is of the contract's form and no other field's. */
export function FieldIdInput({
  field,
  fields,
  messages,
  readOnly,
  onRename,
}: {
  field: FieldDefinition;
  fields: readonly FieldDefinition[];
  messages: BuilderMessages;
  readOnly: boolean;
  onRename(previousId: string, field: FieldDefinition, merge?: string): void;
}) {
  const [typed, setTyped] = useState(field.id);
  /** The id this input applied last, and the one typing began from (the undo step's key). */
  const applied = useRef(field.id);
  const origin = useRef(field.id);
  useEffect(() => {
    // Another field, or an undo: its id as it is.
    if (field.id === applied.current) return;
    applied.current = field.id;
    origin.current = field.id;
    setTyped(field.id);
  }, [field.id]);
  const problemId = useId();
  const problem = typed === field.id ? null : fieldIdProblem(typed, fields, field.id);
  const ref = useRef<HTMLLabelElement>(null);
  useViewerStyles(ref, editorCss);
  return (
    <label ref={ref} className="signet-builder-label">
      {messages.fieldId}
      <input
        type="text"
        value={typed}
        maxLength={64}
        spellCheck={false}
        autoComplete="off"
        disabled={readOnly}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        onChange={(event) => {
          const id = event.target.value;
          setTyped(id);
          if (id !== field.id && !fieldIdProblem(id, fields, field.id)) {
            applied.current = id;
            onRename(field.id, { ...field, id }, `id:${origin.current}`);
          }
        }}
      />
      <Problem id={problemId} text={problem === 'invalid' ? messages.fieldIdInvalid : problem === 'taken' ? messages.fieldIdTaken : null} />
    </label>
  );
}

const RULE_LABELS: Record<Rule, keyof BuilderMessages> = {
  min: 'ruleMin',
  max: 'ruleMax',
  step: 'ruleStep',
  minLength: 'ruleMinLength',
  maxLength: 'ruleMaxLength',
  pattern: 'rulePattern',
  message: 'ruleMessage',
};

/** One validation rule: applied as typed when it is a value the contract takes, removed when blank. */
function RuleInput({
  field,
  rule,
  messages,
  readOnly,
  onChange,
}: {
  field: FieldDefinition;
  rule: Rule;
  messages: BuilderMessages;
  readOnly: boolean;
  onChange(field: FieldDefinition, merge?: string): void;
}) {
  const [typed, setTyped] = useTypedText(ruleText(field, rule), (text) => heldText(parseRule(rule, text)), `${field.id} ${rule}`);
  const problemId = useId();
  const parsed = parseRule(rule, typed);
  const text = rule === 'pattern' || rule === 'message';
  let problem: string | null = null;
  if ('problem' in parsed) {
    if (parsed.problem === 'whole') {
      const [min, max] = LENGTH_BOUNDS[rule as 'minLength' | 'maxLength'];
      problem = fill(messages.ruleNotWhole, { min, max });
    } else problem = parsed.problem === 'positive' ? messages.ruleNotPositive : messages.ruleNotNumber;
  } else if (rule === 'pattern' && typeof parsed.value === 'string' && !fieldPattern(parsed.value)) problem = messages.patternInvalid;
  return (
    <label className="signet-builder-label">
      {messages[RULE_LABELS[rule]]}
      <input
        type="text"
        inputMode={text ? undefined : rule === 'min' || rule === 'max' || rule === 'step' ? 'decimal' : 'numeric'}
        value={typed}
        maxLength={text ? TEXT_RULE_MAX[rule as 'pattern' | 'message'] : 24}
        spellCheck={false}
        autoComplete="off"
        disabled={readOnly}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        onChange={(event) => {
          setTyped(event.target.value);
          const next = parseRule(rule, event.target.value);
          if ('value' in next) onChange(withRule(field, rule, next.value), `${rule}:${field.id}`);
        }}
      />
      <Problem id={problemId} text={problem} />
    </label>
  );
}

/** The font size of a field whose value is written as text: applied while it is 4–72 pt, none when blank. */
function FontSizeInput({
  field,
  messages,
  readOnly,
  onChange,
}: {
  field: FieldDefinition;
  messages: BuilderMessages;
  readOnly: boolean;
  onChange(field: FieldDefinition, merge?: string): void;
}) {
  const [typed, setTyped] = useTypedText(field.fontSize === undefined ? '' : String(field.fontSize), (text) => heldText(parseFontSize(text)), field.id);
  const problemId = useId();
  const problem = 'problem' in parseFontSize(typed);
  const [min, max] = FONT_SIZE_BOUNDS;
  return (
    <label className="signet-builder-label">
      {messages.fontSize}
      <input
        type="text"
        inputMode="decimal"
        value={typed}
        placeholder={messages.fontSizeAuto}
        maxLength={6}
        autoComplete="off"
        disabled={readOnly}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        onChange={(event) => {
          setTyped(event.target.value);
          const next = parseFontSize(event.target.value);
          if ('value' in next) onChange(withFontSize(field, next.value), `fontSize:${field.id}`);
        }}
      />
      <Problem id={problemId} text={problem ? fill(messages.fontSizeInvalid, { min, max }) : null} />
    </label>
  );
}

/** Read-only, the prefill (an input of the field's type), the font size and the rules its type takes. */
export function FieldExtras({
  field,
  messages,
  readOnly,
  onChange,
}: {
  field: FieldDefinition;
  messages: BuilderMessages;
  readOnly: boolean;
  onChange(field: FieldDefinition, merge?: string): void;
}) {
  const kind = prefillKind(field.type);
  const prefill = prefillOf(field);
  const setPrefill = (input: string | boolean, merge?: string) => onChange(withPrefill(field, input), merge);
  const rules = rulesOf(field.type).filter((rule) => rule !== 'message' || field.validation?.pattern !== undefined);
  const ref = useRef<HTMLDivElement>(null);
  useViewerStyles(ref, editorCss);
  return (
    <div ref={ref} className="signet-builder-extras">
      <label className="signet-builder-check">
        <input type="checkbox" checked={!field.editable} disabled={readOnly} onChange={(event) => onChange({ ...field, editable: !event.target.checked })} />
        {messages.readOnly}
      </label>
      {kind === 'checkbox' ? (
        <label className="signet-builder-check">
          <input type="checkbox" checked={prefill === true} disabled={readOnly} onChange={(event) => setPrefill(event.target.checked)} />
          {messages.prefillChecked}
        </label>
      ) : kind === 'choice' ? (
        <label className="signet-builder-label">
          {messages.prefill}
          <select value={String(prefill)} disabled={readOnly} onChange={(event) => setPrefill(event.target.value)}>
            <option value="">{messages.prefillNone}</option>
            {(field.options ?? []).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      ) : kind === 'textarea' ? (
        <label className="signet-builder-label">
          {messages.prefill}
          <textarea value={String(prefill)} disabled={readOnly} onChange={(event) => setPrefill(event.target.value, `value:${field.id}`)} />
        </label>
      ) : kind === 'date' ? (
        <label className="signet-builder-label">
          {messages.prefill}
          <input type="date" value={String(prefill)} disabled={readOnly} onChange={(event) => setPrefill(event.target.value, `value:${field.id}`)} />
        </label>
      ) : kind === 'text' ? (
        <label className="signet-builder-label">
          {messages.prefill}
          <input
            type="text"
            inputMode={field.type === 'number' ? 'decimal' : field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : undefined}
            value={String(prefill)}
            disabled={readOnly}
            onChange={(event) => setPrefill(event.target.value, `value:${field.id}`)}
          />
        </label>
      ) : null}
      {takesFontSize(field.type) ? <FontSizeInput field={field} messages={messages} readOnly={readOnly} onChange={onChange} /> : null}
      {rules.length > 0 ? (
        <fieldset className="signet-builder-rules">
          <legend>{messages.rules}</legend>
          {rules.map((rule) => (
            <RuleInput key={rule} field={field} rule={rule} messages={messages} readOnly={readOnly} onChange={onChange} />
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}
