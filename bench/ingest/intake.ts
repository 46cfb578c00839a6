/**
 * The API-key surface's intake (issue 12): Form B on `POST /webhook/{id}`, with and without the
 * signature check, beside Form A on an ingestion URL, and the PagerDuty- and Opsgenie-compatible
 * intakes (docs/compat-intake.md), in the same shape (first-time events over a few dedup keys,
 * closed loop) and each started on a drained outbox and task queue, so the figures differ only by
 * the path.
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
  /**
   * Form A on the source's ingestion URL, Form B on its receiver (signed or not), or the
   * PagerDuty- and Opsgenie-compatible intakes under its ingestion URL (docs/compat-intake.md).
   */
  path: 'form-a' | 'form-b' | 'pagerduty' | 'opsgenie';
  signed: boolean;
}

const VARIANTS: Variant[] = [
  { key: 'form_a', label: 'Form A on an ingestion URL', path: 'form-a', signed: false },
  { key: 'form_b_unsigned', label: 'Form B on /webhook/{id}, no signature', path: 'form-b', signed: false },
  { key: 'form_b_signed', label: 'Form B on /webhook/{id}, signed (HMAC-SHA256)', path: 'form-b', signed: true },
  { key: 'pagerduty_events_v2', label: 'PagerDuty Events API v2 on {ingest_url}/v2/enqueue', path: 'pagerduty', signed: false },
  { key: 'opsgenie_alert_api', label: 'Opsgenie Alert API v2 on {ingest_url}/v2/alerts', path: 'opsgenie', signed: false },
];

/** Where a variant posts, what it posts, and the headers it needs. */
function target(variant: Variant, source: { id: string; ingest_url: string; routing_key: string }, apiKeyUrl: string, prefix: string) {
  const keyed = { prefix, dedupKeys: STORM_KEYS };
  switch (variant.path) {
    case 'form-a':
      return { url: source.ingest_url, request: { kind: 'alert', ...keyed } as RequestSpec, headers: JSON_HEADERS };
    case 'form-b':
      return {
        url: `${apiKeyUrl}/webhook/${source.id}`,
        request: { kind: 'form-b', ...keyed, ...(variant.signed ? { signingSecret: SECRET } : {}) } as RequestSpec,
        headers: JSON_HEADERS,
      };
    case 'pagerduty':
      return {
        url: `${source.ingest_url}/v2/enqueue`,
        request: { kind: 'pagerduty', ...keyed, routingKey: source.routing_key } as RequestSpec,
        headers: JSON_HEADERS,
      };
    case 'opsgenie':
      return {
        url: `${source.ingest_url}/v2/alerts`,
        request: { kind: 'opsgenie', ...keyed } as RequestSpec,
        headers: { ...JSON_HEADERS, authorization: `GenieKey ${source.routing_key}` },
      };
  }
}

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
    const { url, request, headers } = target(variant, source, stack.config.urls.apiKey, b.prefix(variant.key));
    const { run, cpuAtStart } = await measuredLoad({
      url,
      method: 'POST',
      headers,
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
    `Intake (issue 12): the same first-time events (unique titles, dedup keys cycling over ${STORM_KEYS}, severity warning) from the load generator process, ${INGEST_CONCURRENCY} connections, closed loop, ${INTAKE_S} s each: Form A on a source's ingestion URL, then Form B on a webhook's receiver without and with a signing secret, then PagerDuty Events API v2 triggers (routing_key in the body; dedup_key cycling) on {ingest_url}/v2/enqueue and Opsgenie Alert API creates (GenieKey header; alias cycling) on {ingest_url}/v2/alerts. Signed bodies are signed in the load generator, per request, as a sender would; the receiver reads the raw body, looks the webhook up, checks the HMAC in constant time, then takes the ingestion URL's own path (group commit, outbox). The compatible intakes look the source up by its routing key (and the URL's secret, same workspace) and take the same group commit. Plain HTTP from loopback (the klaxon start default).`,
  );
}
