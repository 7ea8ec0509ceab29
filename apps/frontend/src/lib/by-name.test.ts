import { expect, it } from 'vitest';
import { sortedByName } from './by-name';

it('orders by name as a reader expects: case and accents ignored, numbers by value, the input untouched', () => {
  const input = [{ name: 'writer' }, { name: 'Agent 10' }, { name: 'Éditeur' }, { name: 'Agent 2' }, { name: 'Assistant' }];
  expect(sortedByName(input).map((a) => a.name)).toEqual(['Agent 2', 'Agent 10', 'Assistant', 'Éditeur', 'writer']);
  expect(input[0]!.name).toBe('writer');
});
