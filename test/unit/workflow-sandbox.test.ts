import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * workflows/ is Temporal's deterministic sandbox (style.md rule 1): it may import only the
 * workflow SDK, its own files, pure modules of src/domain and the workflow contracts
 * (src/contracts: names and types every layer shares); activities only as types.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const WORKFLOWS = path.join(ROOT, 'workflows');
const CONTRACTS = path.join(ROOT, 'src', 'contracts');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : full.endsWith('.ts') ? [full] : [];
  });

function importsOf(file: string): Array<{ spec: string; typeOnly: boolean }> {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/^import\s(type\s)?[^'"]*\sfrom\s['"]([^'"]+)['"]/gm)].map((m) => ({ spec: m[2], typeOnly: Boolean(m[1]) }));
}

function allowed(file: string, spec: string): boolean {
  if (spec === '@temporalio/workflow' || spec === '@temporalio/common') return true;
  if (!spec.startsWith('.')) return false;
  const target = path.resolve(path.dirname(file), spec);
  return target.startsWith(WORKFLOWS) || target.startsWith(path.join(ROOT, 'src', 'domain')) || target.startsWith(CONTRACTS);
}

describe('workflow sandbox', () => {
  const files = filesUnder(WORKFLOWS);

  it.each(files.map((f) => [path.relative(ROOT, f), f]))('when %s is read, then every runtime import is sandbox-safe', (_rel, file) => {
    const bad = importsOf(file).filter((i) => !i.typeOnly && !allowed(file, i.spec));
    expect(bad).toEqual([]);
  });

  it('when domain modules used by workflows are read, then they import nothing with I/O', () => {
    const used = new Set(
      files.flatMap((f) =>
        importsOf(f)
          .filter((i) => !i.typeOnly && i.spec.includes('src/domain'))
          .map((i) => path.resolve(path.dirname(f), i.spec) + '.ts'),
      ),
    );
    expect(used.size).toBeGreaterThan(0);
    for (const file of used) expect(importsOf(file).filter((i) => !i.typeOnly)).toEqual([]);
  });

  it('when the workflow contracts are read, then they import only the workflow SDK at run time', () => {
    for (const file of filesUnder(CONTRACTS)) {
      expect({ file, bad: importsOf(file).filter((i) => !i.typeOnly && !i.spec.startsWith('@temporalio/')) }).toEqual({ file, bad: [] });
    }
  });

  it('when workflow code is read, then it uses no wall clock, randomness or timers outside Temporal', () => {
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      expect({ file, hits: source.match(/Math\.random|setTimeout|setInterval|performance\.now|process\./g) ?? [] }).toEqual({ file, hits: [] });
    }
  });
});
