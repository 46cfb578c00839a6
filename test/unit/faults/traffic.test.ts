import { afterAccepted, makeKeys, nextPlan, seededRandom, type KeyState } from '../../faults/traffic';

/** A `random` that returns the given values in turn. */
const sequence =
  (...values: number[]) =>
  () => {
    const v = values.shift();
    if (v === undefined) throw new Error('random asked more often than the test expected');
    return v;
  };

const firing = (keys: KeyState[], i: number) => Object.assign(keys[i], { state: 'firing' });

describe('fault suite traffic', () => {
  it('when keys are made, then each source gets its own, none used yet', () => {
    const keys = makeKeys(2, 2, 'run');
    expect(keys.map((k) => [k.source, k.key, k.state])).toEqual([
      [0, 'run-s0-k000', 'new'],
      [0, 'run-s0-k001', 'new'],
      [1, 'run-s1-k000', 'new'],
      [1, 'run-s1-k001', 'new'],
    ]);
  });

  it('when no key has been used, then the first tick opens the first fresh key', () => {
    const keys = makeKeys(1, 3, 'run');
    expect(nextPlan(keys, sequence())).toEqual({ key: keys[0], actions: ['trigger'], kind: 'new' });
  });

  it('when a firing key is picked, then the roll decides between repeat, resolve and a flap (resolve then fire at once)', () => {
    const keys = makeKeys(1, 1, 'run');
    firing(keys, 0);
    expect(nextPlan(keys, sequence(0, 0.1))).toMatchObject({ actions: ['trigger'], kind: 'repeat' });
    expect(nextPlan(keys, sequence(0, 0.5))).toMatchObject({ actions: ['resolve'], kind: 'resolve' });
    expect(nextPlan(keys, sequence(0, 0.9))).toMatchObject({ actions: ['resolve', 'trigger'], kind: 'flap' });
  });

  it('when a resolved key is picked, then it fires again', () => {
    const keys = makeKeys(1, 1, 'run');
    keys[0].state = 'resolved';
    expect(nextPlan(keys, sequence(0))).toMatchObject({ actions: ['trigger'], kind: 'refire' });
  });

  it('when fresh keys are left but the roll says otherwise, then a used key is updated', () => {
    const keys = makeKeys(1, 2, 'run');
    firing(keys, 0);
    expect(nextPlan(keys, sequence(0.99, 0, 0.1))).toMatchObject({ key: keys[0], kind: 'repeat' });
  });

  it('when a key is busy or broken, then it is never picked, and with nothing else left no plan is made', () => {
    const keys = makeKeys(1, 2, 'run');
    Object.assign(keys[0], { state: 'firing', busy: true });
    Object.assign(keys[1], { state: 'firing', broken: true });
    expect(nextPlan(keys, sequence())).toBeNull();
  });

  it('when an event is accepted, then the key takes the state it said', () => {
    const [key] = makeKeys(1, 1, 'run');
    afterAccepted(key, 'trigger');
    expect(key.state).toBe('firing');
    afterAccepted(key, 'resolve');
    expect(key.state).toBe('resolved');
  });

  it('when two generators share a seed, then they give the same numbers in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const drawn = Array.from({ length: 100 }, () => a());
    expect(drawn).toEqual(Array.from({ length: 100 }, () => b()));
    expect(drawn.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(drawn).size).toBe(100);
  });
});
