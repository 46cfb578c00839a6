import { loadConfig } from '../../src/config';

describe('configuration', () => {
  it('when nothing is set, then the embedded defaults and ports 3000-3002 apply', () => {
    const c = loadConfig({});
    expect(c.ports).toEqual({ app: 3000, ingest: 3001, legacy: 3002 });
    expect(c.urls).toEqual({ app: 'http://localhost:3000', ingest: 'http://localhost:3001', legacy: 'http://localhost:3002' });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.temporal.address).toBeUndefined();
    expect(c.temporal.namespace).toBe('default');
    expect(c.dataDir).toMatch(/\.klaxon$/);
  });

  it('when ports move, then the derived URLs follow unless URLs are given', () => {
    const c = loadConfig({ APP_PORT: '4100', INGEST_PORT: '4101', INGEST_URL: 'https://in.example.com/' });
    expect(c.urls.app).toBe('http://localhost:4100');
    expect(c.urls.ingest).toBe('https://in.example.com');
  });

  it('when a variable is malformed, then the error names it', () => {
    expect(() => loadConfig({ APP_PORT: 'abc' })).toThrow(/APP_PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });
});
