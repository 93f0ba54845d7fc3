import type { FieldDefinition } from '@signet/contract';

/**
 * The builder's fields with their undo and redo stacks: plain data, changed only by `historyReducer`. Edits that
 * share a `merge` key one after another (typing a label letter by letter) are one step of undo.
 */
export interface History {
  past: FieldDefinition[][];
  present: FieldDefinition[];
  future: FieldDefinition[][];
  /** The merge key of the last edit. */
  lastMerge: string | null;
}

export type HistoryAction =
  | { type: 'edit'; fields: FieldDefinition[]; merge?: string }
  | { type: 'undo' }
  | { type: 'redo' }
  /** The fields as loaded (a reload after a conflict): no step to undo back to. */
  | { type: 'reset'; fields: FieldDefinition[] };

/** At most this many steps of undo are kept. */
const LIMIT = 200;

export const startHistory = (fields: FieldDefinition[]): History => ({ past: [], present: fields, future: [], lastMerge: null });

export function historyReducer(state: History, action: HistoryAction): History {
  switch (action.type) {
    case 'edit': {
      if (action.fields === state.present) return state;
      const merging = action.merge !== undefined && action.merge === state.lastMerge;
      const past = merging ? state.past : [...state.past, state.present].slice(-LIMIT);
      return { past, present: action.fields, future: [], lastMerge: action.merge ?? null };
    }
    case 'undo': {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return { past: state.past.slice(0, -1), present: previous, future: [state.present, ...state.future], lastMerge: null };
    }
    case 'redo': {
      const [next, ...future] = state.future;
      if (!next) return state;
      return { past: [...state.past, state.present], present: next, future, lastMerge: null };
    }
    case 'reset':
      return startHistory(action.fields);
  }
}
