import type { SignerDefinition, SigningOrder } from '@signet/contract';
import { useEffect, useId, useRef, useState, type CSSProperties, type FormEvent } from 'react';
import { useViewerStyles } from '../adopt-styles.js';
import { editorCss } from './editor-styles.js';
import { fill, type BuilderMessages } from './messages.js';
import { addSigner, MAX_SIGNERS, moveSigner, renumber, signerProblem } from './signer-edits.js';

export interface SignersPanelProps {
  /** The draft's signers in their order (empty: the one implicit signer). */
  signers: SignerDefinition[];
  signingOrder: SigningOrder | undefined;
  /** Each signer's colour on the page. */
  colours: ReadonlyMap<string, string>;
  /** How many fields each signer has. */
  fieldCounts: ReadonlyMap<string, number>;
  messages: BuilderMessages;
  readOnly: boolean;
  /** Whether each signer has an e-mail address to edit: not a template's roles, whose people come later. */
  withEmail?: boolean;
  onChange(signers: SignerDefinition[], signingOrder: SigningOrder | undefined): void;
  /** Said to screen readers. */
  onAnnounce(text: string): void;
}

type Move = 'up' | 'down';
/** A new name, or a new email (blank: none). */
type SignerChange = { name: string; email?: never } | { name?: never; email: string };

/**
 * The draft's signers, a disclosure under the properties: each with its colour, renamed in place, moved up or down,
 * removed once no field is theirs; a new one added by name (and email); the signing order.
 */
export function SignersPanel({ signers, signingOrder, colours, fieldCounts, messages, readOnly, withEmail = true, onChange, onAnnounce }: SignersPanelProps) {
  const rootRef = useRef<HTMLDetailsElement>(null);
  useViewerStyles(rootRef, editorCss);
  const [notice, setNotice] = useState('');
  const [focus, setFocus] = useState<{ id: string; move: Move } | null>(null);
  const order = signingOrder ?? 'parallel';
  const orderName = useId();

  // A moved signer's button keeps the focus (the other one once it reached an end).
  useEffect(() => {
    if (!focus) return;
    setFocus(null);
    const row = rootRef.current?.querySelector(`[data-signer-id="${CSS.escape(focus.id)}"]`);
    const wanted = row?.querySelector<HTMLButtonElement>(`[data-move="${focus.move}"]`);
    const other = row?.querySelector<HTMLButtonElement>(`[data-move="${focus.move === 'up' ? 'down' : 'up'}"]`);
    (wanted && !wanted.disabled ? wanted : other)?.focus();
  }, [focus]);

  const move = (index: number, by: number) => {
    const signer = signers[index]!;
    setNotice('');
    onChange(moveSigner(signers, index, by), order);
    setFocus({ id: signer.id, move: by < 0 ? 'up' : 'down' });
  };
  const remove = (signer: SignerDefinition) => {
    if ((fieldCounts.get(signer.id) ?? 0) > 0) {
      const text = fill(messages.signerHasFields, { name: signer.name });
      setNotice(text);
      return;
    }
    setNotice('');
    const rest = renumber(signers.filter((each) => each.id !== signer.id));
    onChange(rest, rest.length > 0 ? order : undefined);
    onAnnounce(fill(messages.fieldDeleted, { label: signer.name }));
    rootRef.current?.querySelector<HTMLElement>('summary')?.focus();
  };
  const update = (index: number, change: SignerChange) => {
    const next = signers.map((signer, at) => {
      if (at !== index) return signer;
      if (change.name !== undefined) return { ...signer, name: change.name };
      const { email: _old, ...rest } = signer;
      return change.email ? { ...rest, email: change.email } : rest;
    });
    onChange(next, order);
  };

  return (
    <details ref={rootRef} className="signet-builder-side signet-builder-signers">
      <summary className="signet-builder-heading">
        {messages.signers} ({signers.length})
      </summary>
      {signers.length === 0 ? (
        <p className="signet-builder-hint">{messages.noSigners}</p>
      ) : (
        <>
          <fieldset className="signet-builder-order" disabled={readOnly}>
            <legend>{messages.signingOrder}</legend>
            {(['parallel', 'sequential'] as const).map((value) => (
              <label key={value} className="signet-builder-check">
                <input type="radio" name={orderName} value={value} checked={order === value} onChange={() => onChange(signers, value)} />
                {value === 'parallel' ? messages.orderParallel : messages.orderSequential}
              </label>
            ))}
          </fieldset>
          <ol className="signet-signer-list">
            {signers.map((signer, index) => (
              <SignerRow
                key={signer.id}
                signer={signer}
                number={index + 1}
                colour={colours.get(signer.id) ?? ''}
                first={index === 0}
                last={index === signers.length - 1}
                messages={messages}
                readOnly={readOnly}
                withEmail={withEmail}
                onUpdate={(change) => update(index, change)}
                onMove={(by) => move(index, by)}
                onRemove={() => remove(signer)}
              />
            ))}
          </ol>
        </>
      )}
      {notice ? (
        <p className="signet-builder-problem" role="status">
          {notice}
        </p>
      ) : null}
      {signers.length < MAX_SIGNERS ? (
        <AddSigner
          messages={messages}
          readOnly={readOnly}
          withEmail={withEmail}
          onAdd={(name, email) => {
            setNotice('');
            onChange(addSigner(signers, name, email), order);
            onAnnounce(fill(messages.fieldAdded, { label: name.trim() }));
          }}
        />
      ) : (
        <p className="signet-builder-hint">{fill(messages.signersFull, { count: MAX_SIGNERS })}</p>
      )}
    </details>
  );
}

/** One signer: its colour, its name and email as typed (applied while the server would take them), its buttons. */
function SignerRow({
  signer,
  number,
  colour,
  first,
  last,
  messages,
  readOnly,
  withEmail,
  onUpdate,
  onMove,
  onRemove,
}: {
  signer: SignerDefinition;
  number: number;
  colour: string;
  first: boolean;
  last: boolean;
  messages: BuilderMessages;
  readOnly: boolean;
  withEmail: boolean;
  onUpdate(change: SignerChange): void;
  onMove(by: number): void;
  onRemove(): void;
}) {
  const [name, setName] = useState(signer.name);
  const [email, setEmail] = useState(signer.email ?? '');
  useEffect(() => setName((typed) => (typed.trim() === signer.name ? typed : signer.name)), [signer.name]);
  useEffect(() => setEmail((typed) => (typed.trim() === (signer.email ?? '') ? typed : (signer.email ?? ''))), [signer.email]);
  const nameProblem = signerProblem(name, '') === 'name';
  const emailProblem = signerProblem('-', email) === 'email';
  const nameProblemId = useId();
  const emailProblemId = useId();
  const label = signer.name;
  return (
    <li className="signet-signer-row" data-signer-id={signer.id} style={{ '--_signer': colour } as CSSProperties}>
      <span className="signet-signer-swatch" aria-hidden="true" />
      <div className="signet-signer-inputs">
        <input
          type="text"
          aria-label={fill(messages.signerNameOf, { number })}
          value={name}
          maxLength={200}
          autoComplete="off"
          disabled={readOnly}
          aria-invalid={nameProblem ? true : undefined}
          aria-describedby={nameProblem ? nameProblemId : undefined}
          onChange={(event) => {
            setName(event.target.value);
            if (signerProblem(event.target.value, '') !== 'name') onUpdate({ name: event.target.value.trim() });
          }}
        />
        {nameProblem ? (
          <span id={nameProblemId} className="signet-builder-problem">
            {messages.signerNameMissing}
          </span>
        ) : null}
        {withEmail ? (
          <>
            <input
              type="email"
              aria-label={fill(messages.signerEmailOf, { number })}
              placeholder={messages.newSignerEmail}
              value={email}
              maxLength={320}
              autoComplete="off"
              disabled={readOnly}
              aria-invalid={emailProblem ? true : undefined}
              aria-describedby={emailProblem ? emailProblemId : undefined}
              onChange={(event) => {
                setEmail(event.target.value);
                const address = event.target.value.trim();
                if (signerProblem('-', address) !== 'email') onUpdate({ email: address });
              }}
            />
            {emailProblem ? (
              <span id={emailProblemId} className="signet-builder-problem">
                {messages.signerEmailInvalid}
              </span>
            ) : null}
          </>
        ) : null}
      </div>
      <div className="signet-signer-buttons">
        <button type="button" className="signet-icon-button" data-move="up" aria-label={fill(messages.moveUp, { name: label })} disabled={readOnly || first} onClick={() => onMove(-1)}>
          <span aria-hidden="true">↑</span>
        </button>
        <button type="button" className="signet-icon-button" data-move="down" aria-label={fill(messages.moveDown, { name: label })} disabled={readOnly || last} onClick={() => onMove(1)}>
          <span aria-hidden="true">↓</span>
        </button>
        <button type="button" className="signet-icon-button" aria-label={fill(messages.removeSigner, { name: label })} disabled={readOnly} onClick={onRemove}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
    </li>
  );
}

/** A new signer's name and optional email; added when the server would take them, said beside the input otherwise. */
function AddSigner({
  messages,
  readOnly,
  withEmail,
  onAdd,
}: {
  messages: BuilderMessages;
  readOnly: boolean;
  withEmail: boolean;
  onAdd(name: string, email: string): void;
}) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<'name' | 'email' | null>(null);
  const nameId = useId();
  const emailId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = signerProblem(name, email);
    setProblem(found);
    if (found) return;
    onAdd(name, email);
    setName('');
    setEmail('');
  };
  return (
    <form className="signet-signer-add" onSubmit={submit} noValidate>
      <label className="signet-builder-label">
        {messages.newSignerName}
        <input
          type="text"
          value={name}
          maxLength={200}
          autoComplete="off"
          disabled={readOnly}
          aria-invalid={problem === 'name' ? true : undefined}
          aria-describedby={problem === 'name' ? nameId : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        {problem === 'name' ? (
          <span id={nameId} className="signet-builder-problem">
            {messages.signerNameMissing}
          </span>
        ) : null}
      </label>
      {withEmail ? (
          <label className="signet-builder-label">
            {messages.newSignerEmail}
            <input
              type="email"
              value={email}
              maxLength={320}
              autoComplete="off"
              disabled={readOnly}
              aria-invalid={problem === 'email' ? true : undefined}
              aria-describedby={problem === 'email' ? emailId : undefined}
              onChange={(event) => setEmail(event.target.value)}
            />
            {problem === 'email' ? (
              <span id={emailId} className="signet-builder-problem">
                {messages.signerEmailInvalid}
              </span>
            ) : null}
          </label>
      ) : null}
      <div>
        <button type="submit" className="signet-button signet-button--secondary" disabled={readOnly}>
          {messages.addSigner}
        </button>
      </div>
    </form>
  );
}
