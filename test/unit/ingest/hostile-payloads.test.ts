/**
 * Hostile payloads through the parsers (issue 21): every native sender, Form A and Form B, every
 * string field each reads, filled with the corpus's shapes (test/support/hostile). The failure
 * this guards against is a parse taking seconds to minutes; the per-case bound is loose on
 * purpose, so a busy machine does not trip it while a super-linear regex always does.
 */
import fc from 'fast-check';
import { INGEST_LIMITS } from '../../../src/domain/ingest/limits';
import type { IngestPlan } from '../../../src/domain/ingest/plan';
import { isStorableText, unstorablePath } from '../../../src/domain/ingest/storable-text';
import { SEVERITIES } from '../../../src/domain/severity';
import { corpusEntries, hostileCase, HOSTILE_TARGETS, planBody, renderTexts, TEXT_SHAPES, type HostileTarget } from '../../support/hostile/corpus';

/** A field's worth of hostile text: 64 KiB of body. */
const FIELD_BYTES = 64 * 1024;
/**
 * Every case parses in at most ~12 ms here (most well under 1 ms). Parsers read at most 20,000
 * characters of a field (INGEST_LIMITS.nativeField), so a quadratic regex behind that cap costs
 * ~0.2-0.35 s per field rather than minutes: the bound sits between the two.
 */
const BOUND_MS = 100;

/** The fastest of up to three runs: a GC pause or a busy CPU slows one run, a super-linear parser every run. */
function timedPlan(raw: string, target: HostileTarget): { ms: number; plan: IngestPlan } {
  let best = { ms: Infinity, plan: undefined as unknown as IngestPlan };
  for (let run = 0; run < 3 && best.ms > BOUND_MS; run++) {
    const started = performance.now();
    const plan = planBody(raw, target);
    best = { ms: Math.min(best.ms, performance.now() - started), plan };
  }
  return best;
}

// Limits count characters (code points), as zod and PostgreSQL's varchar do.
const within = (value: string | null, max: number) => value === null || (Array.from(value).length <= max && isStorableText(value));

// A body no sender claims is read as Form A or Form B, whose rules may be the ones it breaks.
const PLAIN_FIELDS = ['title', 'message', 'description', 'severity', 'dedup_key', 'source', 'metadata', 'tags', 'url'];

/** What is wrong with a plan: an event PostgreSQL would refuse or that breaks a limit, or a rejection naming nothing. */
function problemsOf(plan: IngestPlan, target: HostileTarget): string[] {
  if (!plan.ok) {
    const named = /body/.test(plan.message) || [...target.fields, ...PLAIN_FIELDS].some((f) => plan.message.includes(f.split('.')[0]));
    return plan.message.length > 0 && named ? [] : [`unclear rejection: ${plan.message.slice(0, 120)}`];
  }
  return plan.items.flatMap((item) => {
    const bad = [
      !['trigger', 'resolve'].includes(item.action) && 'action',
      !(item.title.length > 0 && within(item.title, INGEST_LIMITS.title)) && 'title',
      !within(item.message, INGEST_LIMITS.message) && 'message',
      !within(item.description, INGEST_LIMITS.description) && 'description',
      !within(item.dedupKey, INGEST_LIMITS.dedupKey) && 'dedupKey',
      !SEVERITIES.includes(item.severity) && 'severity',
      unstorablePath(item.metadata) !== undefined && 'metadata',
    ].filter(Boolean);
    return bad.length ? [`invalid ${bad.join(', ')}`] : [];
  });
}

describe.each(HOSTILE_TARGETS.map((t) => [t.name, t] as const))('hostile payloads: %s', (_name, target) => {
  it('when each field it reads holds each shape of the corpus (64 KiB bodies), then each parse is fast and yields valid events or a clear rejection', () => {
    const failures: string[] = [];
    let cases = 0;
    for (const entry of corpusEntries([target])) {
      const c = hostileCase(entry.target, entry.field, entry.shape, FIELD_BYTES);
      const { ms, plan } = timedPlan(c.raw, target);
      cases++;
      if (ms > BOUND_MS) failures.push(`${c.name}: ${ms.toFixed(0)} ms`);
      failures.push(...problemsOf(plan, target).map((p) => `${c.name}: ${p}`));
    }
    expect(cases).toBeGreaterThan(target.fields.length * TEXT_SHAPES.length - 1);
    expect(failures).toEqual([]);
  });

  it('when several fields hold random mixes of the shapes, then each parse is fast and yields valid events or a clear rejection', () => {
    const piece = fc.record({ shape: fc.constantFrom(...TEXT_SHAPES), n: fc.integer({ min: 1, max: 4096 }) });
    const text = fc.array(piece, { minLength: 1, maxLength: 6 }).map((pieces) =>
      pieces
        .map(({ shape, n }) => shape.prefix + shape.unit.repeat(n) + shape.suffix)
        .join('')
        .slice(0, FIELD_BYTES / 4),
    );
    const texts = fc.dictionary(fc.constantFrom(...target.fields), text, { minKeys: 1, maxKeys: 3 });
    fc.assert(
      fc.property(texts, (fields) => {
        const { ms, plan } = timedPlan(renderTexts(target, fields), target);
        expect(ms).toBeLessThan(BOUND_MS);
        expect(problemsOf(plan, target)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});
