/**
 * The API-key surface's intake (issue 12): Form B on `POST /webhook/{id}`, with and without the
 * signature check, beside Form A on an ingestion URL, in the same shape (first-time events over a
 * few dedup keys, closed loop) and each started on a drained outbox and task queue, so the three
 * figures differ only by the path.
 */
import { createSource } from '../../src/services/ingest';
import { createService } from '../../src/services/workspace';
import { createSealer } from '../../src/services/inbound-webhooks';
import { resolveSecret } from '../../src/stack/secret';
import { cpuSnapshot } from '../harness/cpu';
import { accepted, statusesOf, type RequestSpec } from '../harness/load';
import { JSON_HEADERS, measuredLoad } from '../harness/measured-load';
import { perS } from '../harness/numbers';
import { INGEST_CONCURRENCY, STORM_KEYS, type IngestBench } from './bench';

const INTAKE_S = 5;
const SECRET = 'whsec_bench_signing_secret_0123456789abcdef';

interface Variant {
  key: string;
  label: string;
  /** Form B on the webhook's receiver (signed or not), or Form A on its ingestion URL. */
  receiver: boolean;
  signed: boolean;
}

const VARIANTS: Variant[] = [
  { key: 'form_a', label: 'Form A on an ingestion URL', receiver: false, signed: false },
  { key: 'form_b_unsigned', label: 'Form B on /webhook/{id}, no signature', receiver: true, signed: false },
  { key: 'form_b_signed', label: 'Form B on /webhook/{id}, signed (HMAC-SHA256)', receiver: true, signed: true },
];

export async function intakePhases(b: IngestBench): Promise<void> {
  const { stack, ws } = b;
  const sealer = createSealer(resolveSecret(stack.config));
  for (const variant of VARIANTS) {
    const phase = `intake: ${variant.key}`;
    const service = await createService(stack.orm, { organizationId: ws.organizationId, teamId: ws.teamId, name: `bench intake: ${variant.key}` });
    const source = await createSource(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: service.id,
      name: `bench ${variant.key}`,
      ingestBaseUrl: stack.ingestUrl,
      channels: ['email'],
      webhook: { signingSecretSealed: variant.signed ? sealer.seal(SECRET) : null },
    });
    const start = await b.drain(phase);
    b.say(`Intake: ${variant.label} at ${INGEST_CONCURRENCY} connections for ${INTAKE_S} s`);
    const prefix = b.prefix(variant.key);
    const request: RequestSpec = variant.receiver
      ? { kind: 'form-b', prefix, dedupKeys: STORM_KEYS, ...(variant.signed ? { signingSecret: SECRET } : {}) }
      : { kind: 'alert', prefix, dedupKeys: STORM_KEYS };
    const url = variant.receiver ? `${stack.config.urls.legacy}/webhook/${source.id}` : source.ingest_url;
    const { run, cpuAtStart } = await measuredLoad({
      url,
      method: 'POST',
      headers: JSON_HEADERS,
      request,
      shape: { kind: 'closed', concurrency: INGEST_CONCURRENCY, durationS: INTAKE_S },
    });
    b.cpu(`intake: ${variant.key}`, cpuAtStart, cpuSnapshot(), run.cpuMs);
    b.out.figures.push({ key: `intake_${variant.key}_c${INGEST_CONCURRENCY}_ms`, label: `intake, ${variant.label}, c=${INGEST_CONCURRENCY}`, run });
    b.out.rates.push({
      key: `intake_${variant.key}_accepted_per_s`,
      label: `intake accepted: ${variant.label}`,
      value: perS(accepted(run), run.durationS * 1000),
      unit: 'events/s',
      detail: `${accepted(run)} 2xx in ${run.durationS} s`,
    });
    b.phase(phase, { accepted: accepted(run), statuses: run.statuses });
    b.out.notes.push(`Intake, ${variant.label} (${start}): answers ${statusesOf(run)}.`);
  }
  b.out.notes.push(
    `Intake (issue 12): the same first-time events (unique titles, dedup keys cycling over ${STORM_KEYS}, severity warning) from the load generator process, ${INGEST_CONCURRENCY} connections, closed loop, ${INTAKE_S} s each: Form A on a source's ingestion URL, then Form B on a webhook's receiver without and with a signing secret. Signed bodies are signed in the load generator, per request, as a sender would; the receiver reads the raw body, looks the webhook up, checks the HMAC in constant time, then takes the ingestion URL's own path (group commit, outbox). Plain HTTP from loopback (the klaxon start default).`,
  );
}
