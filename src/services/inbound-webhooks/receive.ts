import type { MikroORM } from '@mikro-orm/postgresql';
import { addressInCidrs, parseCidrs } from '../../domain/cidr';
import { isUuid } from '../../domain/ids';
import { parseJsonText } from '../../domain/ingest/json-text';
import type { IngestHeaders } from '../../domain/ingest/types';
import { signatureMatches } from '../../domain/inbound-webhook-signature';
import { knexOf } from '../../db/knex';
import { forbidden, invalid, notFound, unauthorized } from '../errors';
import type { IngestAnswer, Ingestion } from '../ingest/accept';
import type { SourceCallStats } from '../ingest/call-stats';
import type { Sealer } from '../sealing/seal';

export interface ReceiverDeps {
  orm: MikroORM;
  sealer: Sealer;
  /** The same ingestion as the ingestion URLs: validation, idempotency and commit are one code path. */
  ingestion: Ingestion;
  /** Where each call to a webhook is counted, failed or not. */
  stats: SourceCallStats;
}

/** One call to a webhook's Form B receiver, as the HTTP layer read it. */
export interface WebhookCall {
  webhookId: string;
  /** The body's bytes as sent: the signature is over these, not over re-serialised JSON. */
  rawBody: Buffer;
  headers: IngestHeaders;
  /** The sender's address (behind a trusted proxy, the one it forwarded for). */
  clientAddress: string;
  idempotencyKey?: string;
  /** Checked after the webhook is known and before anything else (a 429 counts as a failed call). */
  rateLimit?: (webhookId: string) => Promise<void>;
}

const UNKNOWN_WEBHOOK = 'unknown or deleted webhook';

/**
 * The Form B receiver (docs/architecture.md, "Inbound webhooks"): the sender's address must be in the webhook's allowlist
 * and, when it has a signing secret, `X-Service-Signature` must be the HMAC-SHA256 of the raw
 * body (constant-time compare); then the body is ingested exactly as on the ingestion URL. Every
 * call to a known webhook is counted, failed or not; a refused call stores nothing else.
 */
export async function receiveInboundWebhookCall(deps: ReceiverDeps, call: WebhookCall): Promise<IngestAnswer> {
  const hook = isUuid(call.webhookId)
    ? await knexOf(deps.orm)('alert_sources')
        .select('id', 'token_hash', 'signing_secret_sealed', 'ip_allowlist')
        .where({ id: call.webhookId })
        .whereIn('status', ['ACTIVE', 'PAUSED'])
        .whereNotNull('channels')
        .first()
    : undefined;
  if (!hook) throw notFound(UNKNOWN_WEBHOOK);
  try {
    await call.rateLimit?.(hook.id);
    assertAllowed(hook.ip_allowlist as string[] | null, call.clientAddress);
    assertSigned(deps.sealer, hook.signing_secret_sealed as string | null, call);
    const answer = await deps.ingestion.ingestOnSource({
      tokenHash: hook.token_hash,
      body: parseJson(call.rawBody),
      headers: call.headers,
      idempotencyKey: call.idempotencyKey,
    });
    deps.stats.countById(hook.id, true);
    return answer;
  } catch (err) {
    deps.stats.countById(hook.id, false);
    throw err;
  }
}

function assertAllowed(allowlist: string[] | null, address: string): void {
  if (!allowlist?.length) return;
  const parsed = parseCidrs(allowlist);
  if (parsed.ok && addressInCidrs(address, parsed.cidrs)) return;
  throw forbidden('this address may not post to this webhook (IP allowlist)', 'ip_not_allowed');
}

function assertSigned(sealer: Sealer, sealed: string | null, call: WebhookCall): void {
  if (!sealed) return;
  const secret = sealer.open(sealed);
  // A secret sealed under another KLAXON_SECRET cannot verify anything: refuse rather than accept unsigned.
  if (secret === undefined || !signatureMatches(secret, call.rawBody, call.headers['x-service-signature'])) {
    throw unauthorized('missing or invalid X-Service-Signature (sha256=<hex HMAC-SHA256 of the raw body>)', 'invalid_signature');
  }
}

// Nesting is checked before JSON.parse (src/domain/ingest/json-text.ts); Form B names any other problem.
function parseJson(raw: Buffer): unknown {
  const parsed = parseJsonText(raw.toString('utf8'));
  if (!parsed.ok) throw invalid(parsed.message);
  return parsed.value;
}
