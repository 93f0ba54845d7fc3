import { SigningApiError, type SigningClient } from '@signet/api';
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
  client: SigningClient;
  documentId: string;
  fields: FieldDefinition[];
  /** The draft's signers and signing order, saved with the fields as they were loaded. */
  signers: SignerDefinition[] | undefined;
  signingOrder: SigningOrder | undefined;
  /** The fields as sent to the server (a blank label saved as the type's name). */
  toSaved(fields: FieldDefinition[]): FieldDefinition[];
  enabled: boolean;
  onSave(result: { version: number }): void;
  onError(error: Error): void;
}

/**
 * Saves the builder's fields with `updateDraft` `SAVE_DELAY_MS` after the last change, on the version last loaded or
 * saved (`If-Match`); one save at a time, and again if the fields changed meanwhile. A 412 stops saving and is
 * reported as a conflict until `loaded` is called with a reloaded draft.
 * @example const autosave = useAutosave({ client, documentId, fields, … }); await autosave.flush();
 */
export function useAutosave(options: AutosaveOptions & { version: number; loadedFields: FieldDefinition[] }) {
  const { fields, enabled } = options;
  const [state, setState] = useState<SaveState>({ status: 'saved' });
  const latest = useLatest(options);
  const version = useRef(options.version);
  /** The fields the server holds (as loaded or last saved). */
  const saved = useRef(options.loadedFields);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const running = useRef<Promise<void> | null>(null);
  const conflict = useRef(false);

  const save = useCallback((): Promise<void> => {
    clearTimeout(timer.current);
    if (running.current) return running.current.then(() => save());
    const { client, documentId, toSaved, signers, signingOrder } = latest.current;
    const sending = latest.current.fields;
    if (sending === saved.current || conflict.current) return Promise.resolve();
    setState({ status: 'saving' });
    const run = client
      .updateDraft(documentId, {
        version: version.current,
        fields: toSaved(sending),
        ...(signers ? { signers } : {}),
        ...(signingOrder ? { signingOrder } : {}),
      })
      .then(
        (draft) => {
          version.current = draft.version;
          saved.current = sending;
          latest.current.onSave({ version: draft.version });
          setState(latest.current.fields === sending ? { status: 'saved' } : { status: 'pending' });
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
      if (!conflict.current && latest.current.fields !== saved.current) schedule();
    });
  }, [latest]);

  const schedule = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), SAVE_DELAY_MS);
  }, [save]);

  useEffect(() => {
    if (!enabled || fields === saved.current || conflict.current) return;
    setState((current) => (current.status === 'saving' ? current : { status: 'pending' }));
    schedule();
  }, [fields, enabled, schedule]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return {
    state,
    /** The draft's version as last loaded or saved. */
    version,
    /** Saves now what is not saved yet; resolves once the server has it (or it failed: see `state`). */
    flush: save,
    /** The draft was (re)loaded: its fields and version are the server's, and saving may go on. */
    loaded(draft: { version: number; fields: FieldDefinition[] }) {
      clearTimeout(timer.current);
      conflict.current = false;
      version.current = draft.version;
      saved.current = draft.fields;
      setState({ status: 'saved' });
    },
    /** Whether the last save attempt ended in a conflict or a failure (what `flush` left unsaved). */
    unsaved: () => conflict.current || latest.current.fields !== saved.current,
  };
}
