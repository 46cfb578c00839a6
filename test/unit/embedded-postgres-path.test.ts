import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertReachableByPostgresUser } from '../../src/embedded/postgres';

describe('embedded Postgres data folder as root', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(path.join(os.tmpdir(), 'klaxon-perm-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('when an ancestor is closed to others, then a clear error names it and the ways out', () => {
    const closed = path.join(base, 'home');
    mkdirSync(path.join(closed, 'project'), { recursive: true });
    chmodSync(base, 0o755);
    chmodSync(closed, 0o700);
    expect(() => assertReachableByPostgresUser(path.join(closed, 'project', '.klaxon'), 0)).toThrow(
      new RegExp(`cannot enter ${closed}.*chmod o\\+x.*KLAXON_DATA_DIR.*DATABASE_URL`),
    );
  });

  it('when every ancestor can be entered, or Klaxon is not root, then no error', () => {
    const open = path.join(base, 'srv');
    mkdirSync(open, { recursive: true });
    chmodSync(base, 0o755);
    chmodSync(open, 0o755);
    expect(() => assertReachableByPostgresUser(open, 0)).not.toThrow();
    chmodSync(open, 0o700);
    expect(() => assertReachableByPostgresUser(open, 1000)).not.toThrow();
  });
});
