import type { FieldDefinition } from '@signet/contract';
import { expect, it } from 'vitest';
import { historyReducer, startHistory } from './history.js';

const field = (id: string, label = id): FieldDefinition => ({ id, type: 'text', page: 1, x: 0, y: 0, width: 0.1, height: 0.1, required: false, editable: true, label });

it('undoes and redoes edits, and a new edit forgets what could be redone', () => {
  const one = [field('a')];
  const two = [field('a'), field('b')];
  let state = historyReducer(startHistory([]), { type: 'edit', fields: one });
  state = historyReducer(state, { type: 'edit', fields: two });
  state = historyReducer(state, { type: 'undo' });
  expect(state.present).toBe(one);
  state = historyReducer(state, { type: 'redo' });
  expect(state.present).toBe(two);
  state = historyReducer(historyReducer(state, { type: 'undo' }), { type: 'edit', fields: [] });
  expect(state.future).toEqual([]);
  expect(historyReducer(state, { type: 'redo' })).toBe(state);
});

it('makes edits that share a merge key one step (typing a label), and a reset leaves nothing to undo', () => {
  let state = startHistory([field('a')]);
  for (const label of ['N', 'Na', 'Nam', 'Name']) state = historyReducer(state, { type: 'edit', fields: [field('a', label)], merge: 'label:a' });
  expect(state.past).toHaveLength(1);
  expect(historyReducer(state, { type: 'undo' }).present[0]!.label).toBe('a');
  state = historyReducer(state, { type: 'reset', fields: [] });
  expect(state).toEqual({ past: [], present: [], future: [], lastMerge: null });
});
