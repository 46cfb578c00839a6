/**
 * The API-key surface (issue 12): signed Form B intake on `POST /webhook/{id}`, with and without
 * the signature check, beside Form A on an ingestion URL in the same run and shape (first-time
 * events over a few dedup keys, closed loop), so the three figures differ only by the path.
 */
import { createSource } from '../../src/services/ingest';
import { createService } from '../../src/services/workspace';
import { createSealer } from '../../src/services/webhooks';
import { resolveSecret } from '../../src/stack/secret';
import { accepted, type RequestSpec } from '../harness/load';
import { JSON_HEADERS, measuredLoad } from '../harness/measured-load';
import { perS } from '../harness/numbers';
import type { Findings } from '../harness/report';
import type { BenchStack, Say } from '../harness/stack';
import type { BenchWorkspace } from '../harness/workspace';

const CONCURRENCY = 16;
const DURATION_S = 5;
const DEDUP_KEYS = 50;
const SECRET = 'whsec_bench_signing_secret_0123456789abcdef';

interface Variant {
  key: string;
  label: string;
  /** Where it posts: the ingestion URL (Form A) or the webhook's receiver (Form B). */
  url: (source: { id: string; ingest_url: string; legacy: string }) => string;
  request: (prefix: string) => RequestSpec;
  signed: boolean;
}

const VARIANTS: Variant[] = [
  { key: 'form_a', label: 'Form A on an ingestion URL', url: (s) => s.ingest_url, request: (prefix) => ({ kind: 'alert', prefix, dedupKeys: DEDUP_KEYS }), signed: false },
  { key: 'form_b_unsigned', label: 'Form B on /webhook/{id}, no signature', url: (s) => `${s.legacy}/webhook/${s.id}`, request: (prefix) => ({ kind: 'form-b', prefix, dedupKeys: DEDUP_KEYS }), signed: false },
  { key: 'form_b_signed', label: 'Form B on /webhook/{id}, signed (HMAC-SHA256)', url: (s) => `${s.legacy}/webhook/${s.id}`, request: (prefix) => ({ kind: 'form-b', prefix, dedupKeys: DEDUP_KEYS, signingSecret: SECRET }), signed: true },
];

export async function benchFormB(stack: BenchStack, ws: BenchWorkspace, say: Say): Promise<Findings> {
  const out: Findings = { figures: [], rates: [], notes: [] };
  const sealer = createSealer(resolveSecret(stack.config));
  const legacy = stack.config.urls.legacy;
  for (const variant of VARIANTS) {
    const service = await createService(stack.orm, { organizationId: ws.organizationId, teamId: ws.teamId, name: `bench legacy: ${variant.key}` });
    const source = await createSource(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: service.id,
      name: `bench ${variant.key}`,
      ingestBaseUrl: stack.ingestUrl,
      channels: ['email'],
      webhook: { signingSecretSealed: variant.signed ? sealer.seal(SECRET) : null },
    });
    say(`Intake: ${variant.label} at ${CONCURRENCY} connections for ${DURATION_S} s`);
    const { run } = await measuredLoad({
      url: variant.url({ ...source, legacy }),
      method: 'POST',
      headers: JSON_HEADERS,
      request: variant.request(`bench-${Date.now().toString(36)}-${variant.key}`),
      shape: { kind: 'closed', concurrency: CONCURRENCY, durationS: DURATION_S },
    });
    out.figures.push({ key: `intake_${variant.key}_c${CONCURRENCY}_ms`, label: `intake, ${variant.label}, c=${CONCURRENCY}`, run });
    out.rates.push({ key: `intake_${variant.key}_accepted_per_s`, label: `intake accepted: ${variant.label}`, value: perS(accepted(run), run.durationS * 1000), unit: 'events/s', detail: `${accepted(run)} 2xx in ${run.durationS} s; answers ${JSON.stringify(run.statuses)}` });
  }
  out.notes.push(
    `Intake (issue 12): the same first-time events (unique titles, dedup keys cycling over ${DEDUP_KEYS}, severity warning) from the load generator process, ${CONCURRENCY} connections, closed loop, ${DURATION_S} s each, one after the other on the same stack: Form A on a source's ingestion URL, then Form B on a webhook's receiver without and with a signing secret. The signed run's bodies are signed in the load generator, per request, as a sender would; the receiver reads the raw body, checks the HMAC in constant time, then takes the ingestion URL's own path (group commit, outbox). Plain HTTP from loopback (ALLOW_INSECURE_HTTP=loopback, the klaxon start default).`,
  );
  return out;
}
