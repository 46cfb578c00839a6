/**
 * What the senders send next (pure): a set of alert keys per source, each firing or resolved as
 * its sender last told us, and a weighted choice of the next thing to say about one of them: a
 * new key (a new incident), a repeat of a firing key (a dedup attach), a resolve, a resolve and
 * an immediate re-fire (a flapping check), or a re-fire of a resolved key (a new incident).
 */

/** One alert key of one source, as the sender sees it. */
export interface KeyState {
  source: number;
  /** The Alertmanager fingerprint; the dedup key is `alertmanager:<key>`. */
  key: string;
  state: 'new' | 'firing' | 'resolved';
  /** A request for it is in flight (a sender sends one key's updates in order, one at a time). */
  busy: boolean;
  /** A send gave up or was refused: the sender's model of it is no longer known, so it is left alone. */
  broken: boolean;
}

export type Action = 'trigger' | 'resolve';

/** What one tick sends: a key and one or two events for it, back to back. */
export interface Plan {
  key: KeyState;
  actions: Action[];
  kind: 'new' | 'repeat' | 'resolve' | 'flap' | 'refire';
}

/** How the next event is chosen. */
export interface TrafficMix {
  /** Chance a tick opens a key not used yet, while some are left. */
  newKey: number;
  /** For a firing key: repeat, resolve, or resolve then re-fire at once (the rest). */
  repeat: number;
  resolve: number;
}

export const DEFAULT_MIX: TrafficMix = { newKey: 0.3, repeat: 0.4, resolve: 0.35 };

/** `perSource` keys for each of `sources` sources, none used yet. */
export function makeKeys(sources: number, perSource: number, prefix: string): KeyState[] {
  const keys: KeyState[] = [];
  for (let s = 0; s < sources; s++) {
    for (let k = 0; k < perSource; k++)
      keys.push({ source: s, key: `${prefix}-s${s}-k${String(k).padStart(3, '0')}`, state: 'new', busy: false, broken: false });
  }
  return keys;
}

/**
 * The next plan, or null when every usable key is busy. `random` returns [0, 1) (seeded in tests).
 * Fresh keys are taken in order, so early ticks open incidents and later ones mostly update them.
 */
export function nextPlan(keys: readonly KeyState[], random: () => number, mix: TrafficMix = DEFAULT_MIX): Plan | null {
  const idle = keys.filter((k) => !k.busy && !k.broken);
  const fresh = idle.filter((k) => k.state === 'new');
  const used = idle.filter((k) => k.state !== 'new');
  if (fresh.length && (used.length === 0 || random() < mix.newKey)) return { key: fresh[0], actions: ['trigger'], kind: 'new' };
  if (used.length === 0) return null;
  const key = used[Math.floor(random() * used.length)];
  if (key.state === 'resolved') return { key, actions: ['trigger'], kind: 'refire' };
  const r = random();
  if (r < mix.repeat) return { key, actions: ['trigger'], kind: 'repeat' };
  if (r < mix.repeat + mix.resolve) return { key, actions: ['resolve'], kind: 'resolve' };
  return { key, actions: ['resolve', 'trigger'], kind: 'flap' };
}

/** The key after one of its events was accepted. */
export function afterAccepted(key: KeyState, action: Action): void {
  key.state = action === 'trigger' ? 'firing' : 'resolved';
}

/** A small seeded generator (mulberry32): a run prints its seed, and tests get the same numbers every time. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
