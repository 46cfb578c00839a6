import { describe, expect, it } from 'vitest';
import { credentialLabel, keyBody, tokenBody } from './credentials';
import type { ApiToken } from './types';

describe('credential forms', () => {
  it('when the token name is blank, then the body leaves it out; otherwise it is sent trimmed with the days as a number', () => {
    expect(tokenBody({ name: '  ', access: 'READ_ONLY', days: 7 })).toEqual({ access: 'READ_ONLY', days: 7 });
    expect(tokenBody({ name: ' grafana ', access: 'READ_WRITE', days: '30' })).toEqual({ access: 'READ_WRITE', days: 30, name: 'grafana' });
  });

  it('when the key name is blank, then no name is sent and the server names it', () => {
    expect(keyBody('')).toEqual({});
    expect(keyBody(' deploy bot ')).toEqual({ name: 'deploy bot' });
  });

  it('when a token has no name, then its row is named by its prefix', () => {
    const token = { name: null, prefix: 'klx_Ab3x' } as ApiToken;
    expect(credentialLabel(token)).toBe('klx_Ab3x');
    expect(credentialLabel({ ...token, name: 'grafana' })).toBe('grafana');
  });
});
