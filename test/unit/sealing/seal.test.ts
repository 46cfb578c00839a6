import { createSealer } from '../../../src/services/sealing/seal';

describe('sealed webhook secrets', () => {
  it('when a secret is sealed, then it opens with the same key only, and an altered value does not open', () => {
    const sealer = createSealer('k'.repeat(40));
    const sealed = sealer.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(sealer.seal('whsec_abc')).not.toBe(sealed);
    expect(sealer.open(sealed)).toBe('whsec_abc');
    expect(createSealer('j'.repeat(40)).open(sealed)).toBeUndefined();
    const flipped = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'B' : 'A') + sealed.slice(-1);
    expect(sealer.open(flipped)).toBeUndefined();
    expect(sealer.open('v0.garbage')).toBeUndefined();
  });
});
