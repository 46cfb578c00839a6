import { describe, expect, it } from 'vitest';
import { targetFromValue, targetNamer, targetOptions, targetValue, type Directory } from './targets';

const directory: Directory = {
  users: [
    { id: 'u1', email: 'ada@example.test', name: 'Ada' },
    { id: 'u2', email: 'bob@example.test', name: null },
  ],
  schedules: [],
  teams: [{ id: 't1', name: 'Ops' }],
};

describe('targets', () => {
  it('when a target becomes a select value and back, then it is the same target', () => {
    expect(targetFromValue(targetValue({ type: 'schedule', id: 'abc' }))).toEqual({ type: 'schedule', id: 'abc' });
  });

  it('when targets are named, then people by name and email (short: name), others by name (short: with their kind), unknown ones by kind and id', () => {
    const nameOf = targetNamer(directory);
    expect(nameOf({ type: 'user', id: 'u1' })).toBe('Ada (ada@example.test)');
    expect(nameOf({ type: 'user', id: 'u2' })).toBe('bob@example.test');
    expect(nameOf({ type: 'schedule', id: '0123456789abcdef' })).toBe('schedule 01234567');
    const short = targetNamer(directory, { short: true });
    expect([short({ type: 'user', id: 'u1' }), short({ type: 'user', id: 'u2' }), short({ type: 'team', id: 't1' })]).toEqual([
      'Ada',
      'bob@example.test',
      'team Ops',
    ]);
  });

  it('when a chosen target is not in the directory, then it is still offered, so saving keeps it; empty groups are left out', () => {
    const options = targetOptions(directory, [{ type: 'schedule', id: 'gone-1234' }]);
    expect(options.map((g) => g.group)).toEqual(['People', 'Schedules', 'Teams']);
    expect(options[1].items).toEqual([{ value: 'schedule:gone-1234', label: 'schedule gone-123' }]);
    expect(targetOptions(directory, []).map((g) => g.group)).toEqual(['People', 'Teams']);
  });
});
