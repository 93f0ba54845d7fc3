import { SigningApiError, type BuilderClient } from '@signet/api';
import type { FieldDefinition, SignerDefinition, SigningOrder } from '@signet/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLatest } from '../useLatest.js';

/** How long the builder waits after the last change before saving it. */
export const SAVE_DELAY_MS = 800;

export type SaveState =
  | { status: 'saved' }
  | { status: 'pending' }
  | { status: 'saving' }
  | { status: 'failed'; error: Error }
  /** Another save came first: `currentVersion` is the draft's version now. Nothing is saved until a reload. */
  | { status: 'conflict'; currentVersion: number | undefined };

export interface AutosaveOptions {
  client: BuilderClient;
  documentId: string;
  fields: FieldDefinition[];
  /** The draft's signers in the builder's state (empty: the draft's one implicit signer), saved with the fields. */
  signers: SignerDefinition[];
  signingOrder: SigningOrder | undefined;
  /** The content as sent to the server (a blank label saved as the type's name; no signers when the list is empty). */
  toSaved(fields: FieldDefinition[], signers: SignerDefinition[], signingOrder: SigningOrder | undefined): {
    fields: FieldDefinition[];
    signers: SignerDefinition[] | undefined;
    signingOrder: SigningOrder | undefined;
  };
  enabled: boolean;
  onSave(result: { version: number }): void;
  onError(error: Error): void;
}

/** What the builder saves: its fields, signers and signing order, each compared by reference. */
interface Content {
  fields: FieldDefinition[];
  signers: SignerDefinition[];
  signingOrder: SigningOrder | undefined;
}
const same = (a: Content, b: Content) => a.fields === b.fields && a.signers === b.signers && a.signingOrder === b.signingOrder;
const contentOf = ({ fields, signers, signingOrder }: Content): Content => ({ fields, signers, signingOrder });

/**
 * Saves the builder's fields, signers and signing order with `updateDraft` `SAVE_DELAY_MS` after the last change, on
 * the version last loaded or saved (`If-Match`); one save at a time, and again if they changed meanwhile. A 412 stops saving and is
 * reported as a conflict until `loaded` is called with a reloaded draft.
 * @example const autosave = useAutosave({ client, documentId, fields, … }); await autosave.flush();
 */
export function useAutosave(options: AutosaveOptions & { version: number; loadedFields: FieldDefinition[] }) {
  const { fields, signers, signingOrder, enabled } = options;
  const [state, setState] = useState<SaveState>({ status: 'saved' });
  const latest = useLatest(options);
  const version = useRef(options.version);
  /** What the server holds (as loaded or last saved): the signers as first given are those loaded. */
  const saved = useRef<Content>({ fields: options.loadedFields, signers: options.signers, signingOrder: options.signingOrder });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const running = useRef<Promise<void> | null>(null);
  const conflict = useRef(false);

  const save = useCallback((): Promise<void> => {
    clearTimeout(timer.current);
    if (running.current) return running.current.then(() => save());
    const { client, documentId, toSaved } = latest.current;
    const sending = contentOf(latest.current);
    if (same(sending, saved.current) || conflict.current) return Promise.resolve();
    setState({ status: 'saving' });
    const { fields: savedFields, signers: savedSigners, signingOrder: savedOrder } = toSaved(sending.fields, sending.signers, sending.signingOrder);
    const run = client
      .updateDraft(documentId, {
        version: version.current,
        fields: savedFields,
        ...(savedSigners ? { signers: savedSigners } : {}),
        ...(savedOrder ? { signingOrder: savedOrder } : {}),
      })
      .then(
        (draft) => {
          version.current = draft.version;
          saved.current = sending;
          latest.current.onSave({ version: draft.version });
          setState(same(latest.current, sending) ? { status: 'saved' } : { status: 'pending' });
        },
        (error: Error) => {
          if (error instanceof SigningApiError && error.code === 'PRECONDITION_FAILED') {
            conflict.current = true;
            setState({ status: 'conflict', currentVersion: error.details?.currentVersion });
          } else setState({ status: 'failed', error });
          latest.current.onError(error);
        },
      )
      .finally(() => {
        running.current = null;
      });
    running.current = run;
    return run.then(() => {
      // Changes made while this save was on its way go in the next.
      if (!conflict.current && !same(latest.current, saved.current)) schedule();
    });
  }, [latest]);

  const schedule = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), SAVE_DELAY_MS);
  }, [save]);

  useEffect(() => {
    if (!enabled || same({ fields, signers, signingOrder }, saved.current) || conflict.current) return;
    setState((current) => (current.status === 'saving' ? current : { status: 'pending' }));
    schedule();
  }, [fields, signers, signingOrder, enabled, schedule]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return {
    state,
    /** The draft's version as last loaded or saved. */
    version,
    /** Saves now what is not saved yet; resolves once the server has it (or it failed: see `state`). */
    flush: save,
    /**
     * The draft was (re)loaded: its content and version are the server's, and saving may go on. `signers` and
     * `signingOrder` are the very values the builder's state is set to.
     */
    loaded(draft: { version: number } & Content) {
      clearTimeout(timer.current);
      conflict.current = false;
      version.current = draft.version;
      saved.current = contentOf(draft);
      setState({ status: 'saved' });
    },
    /** Whether the last save attempt ended in a conflict or a failure (what `flush` left unsaved). */
    unsaved: () => conflict.current || !same(latest.current, saved.current),
  };
}
