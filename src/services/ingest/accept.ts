import type { MikroORM } from '@mikro-orm/postgresql';
import { hashSecret } from '../../domain/api-token';
import { looksLikeUrlSecret } from '../../domain/ids';
import { payloadFingerprint } from '../../domain/ingest/canonical-json';
import { planIngestInSlices, type IngestItem, type IngestPlan, type PlainForm } from '../../domain/ingest/plan';
import type { IngestHeaders } from '../../domain/ingest/types';
import { knexOf } from '../../db/knex';
import { conflict, invalid, locked, notFound } from '../errors';
import { GroupCommit } from './group-commit';
import type { StormSetting } from '../../domain/grouping/storm';
import { commitBatch, nullIfNil, type AcceptOutcome, type AcceptRequest } from './batch';
import type { AccountMailer } from '../accounts/mailer';
import { AlertQuotaReached, type UsageNotice } from '../plans/alert-quota';
import { sendUsageEmails } from '../plans/usage-emails';
import type { SnsVerifier } from './sns';
import { sourceStatus } from './sources';

export interface IngestAnswer {
  /** `confirmed`: an SNS subscription was confirmed. */
  status: 'accepted' | 'confirmed';
  /** The first event of the request (null when the sender's message asked for nothing). */
  event_id: string | null;
  incident_id: string | null;
  duplicate: boolean;
  /** Every event of a batch payload (Alertmanager, Grafana), when there is more than one. */
  events?: Array<{ event_id: string; incident_id: string | null; action: IngestItem['action'] }>;
}

export interface IngestOptions {
  /** How long an Idempotency-Key's first answer is replayed. */
  idempotencyTtlMs: number;
  /** Verifies SNS deliveries and confirms subscriptions. */
  sns: SnsVerifier;
  /**
   * Called after each commit that queued events for delivery (kicks the outbox relay); `urgent`
   * when one opened or resolved an incident, so paging must not wait for coalescing.
   */
  onAccepted?: (urgent: boolean) => void;
  /** The storm guard of sources that follow the default (config STORM_GUARD); absent or null: off. */
  stormGuard?: StormSetting | null;
  /** Most requests one transaction carries (group commit). */
  maxBatch?: number;
  /** Batches written at once: a second one overlaps the first's round trips. */
  maxInFlight?: number;
  /**
   * Sends the plan usage emails (80 % and 100 % of a capped plan's monthly alerts) to the
   * workspace's admins, after the batch that reached them commits; `onFailed` hears of a lost one.
   */
  usageMail?: { mailer: AccountMailer; onFailed: (err: unknown) => void };
}

export interface IngestInput {
  secret: string;
  body: unknown;
  headers?: IngestHeaders;
  idempotencyKey?: string;
}

const UNKNOWN_SOURCE = 'unknown or revoked ingestion URL';

/**
 * Alert ingestion (docs/architecture.md, "Ingestion"). Requests are parsed and validated on their own, then committed
 * by group commit: under load one transaction stores many requests, and each caller is answered
 * only once its request is durably stored (alert, idempotency record, routing, outbox message).
 * Delivery to the workflows happens after, through the outbox relay, so nothing accepted is lost.
 */
export class Ingestion {
  private readonly commits: GroupCommit<AcceptRequest, AcceptOutcome>;

  constructor(
    private readonly orm: MikroORM,
    private readonly opts: IngestOptions,
  ) {
    // Once committed, a batch's usage emails are marked sent: they go now, once, without holding its answers.
    const commitOpts = {
      idempotencyTtlMs: opts.idempotencyTtlMs,
      stormDefault: opts.stormGuard ?? null,
      onUsageReached: (notices: UsageNotice[]) => void this.sendUsage(notices),
    };
    this.commits = new GroupCommit((batch) => commitBatch(knexOf(orm), batch, commitOpts), {
      maxBatch: opts.maxBatch ?? 256,
      maxInFlight: opts.maxInFlight ?? 2,
      onCommitted: (_items, outcomes) => {
        const accepted = outcomes.filter((o) => o.kind === 'accepted' && o.events.length > 0);
        if (accepted.length) opts.onAccepted?.(accepted.some((o) => o.kind === 'accepted' && o.urgent));
      },
    });
  }

  /** Accepts one request on a source's secret URL; throws DomainErrors a surface maps to statuses. */
  async ingest(input: IngestInput): Promise<IngestAnswer> {
    if (!looksLikeUrlSecret(input.secret)) throw notFound(UNKNOWN_SOURCE);
    return this.accept(hashSecret(input.secret), input, 'A');
  }

  /**
   * Accepts one request for a source already identified by its token hash (the API-key surface's
   * Form B receiver, docs/architecture.md, "Inbound webhooks"): the same validation, idempotency and commit as `ingest`.
   */
  async ingestOnSource(input: Omit<IngestInput, 'secret'> & { tokenHash: string }): Promise<IngestAnswer> {
    return this.accept(input.tokenHash, input, 'B');
  }

  /**
   * Accepts items a compatible intake already read (PagerDuty's Events API, Opsgenie's Alert API:
   * docs/compat-intake.md) for the source a routing key named, by its token hash: the same
   * idempotency (keyed on `fingerprintOf`, what the request said, its route included), group
   * commit and answers as `ingest`.
   */
  async ingestItems(input: { tokenHash: string; items: IngestItem[]; fingerprintOf: unknown; idempotencyKey?: string }): Promise<IngestAnswer> {
    return this.commit(input.tokenHash, input.items, input.fingerprintOf, input.idempotencyKey);
  }

  private async accept(tokenHash: string, input: Omit<IngestInput, 'secret'>, form: PlainForm): Promise<IngestAnswer> {
    const plan = await planInTurns(input.body, input.headers ?? {}, form);
    if (!plan.ok || plan.sender === 'aws-sns') {
      // Rare paths look the source up first: an unknown URL answers 404 whatever its body, and
      // nothing of an SNS message is used (or fetched) for an unknown URL.
      const status = await sourceStatus(this.orm, tokenHash);
      if (!status) throw notFound(UNKNOWN_SOURCE);
      if (status === 'PAUSED') return answerOf({ kind: 'paused' });
      if (!plan.ok) throw invalid(plan.message);
      const envelope = await this.opts.sns.verified(input.body);
      if (plan.confirm) {
        await this.opts.sns.confirm(envelope);
        return { status: 'confirmed', event_id: null, incident_id: null, duplicate: false };
      }
    }
    return this.commit(tokenHash, plan.items, input.body, input.idempotencyKey);
  }

  /** Idempotency, then the group commit: a replay is answered from its stored record with one read, outside any batch. */
  private async commit(tokenHash: string, items: IngestItem[], fingerprintOf: unknown, key: string | undefined): Promise<IngestAnswer> {
    if (key !== undefined && (key.length === 0 || key.length > 255)) throw invalid('Idempotency-Key must be 1 to 255 characters');
    // Canonical JSON of a large body takes a while: on a turn of its own, after planning's.
    if (key !== undefined) await nextTurn();
    const idempotency = key === undefined ? undefined : { key, fingerprint: payloadFingerprint(fingerprintOf) };
    const replay = idempotency && (await this.storedAnswer(tokenHash, idempotency));
    const outcome = replay ?? (await this.commits.submit({ tokenHash, items, idempotency }));
    return answerOf(outcome);
  }

  /** Sends a committed batch's usage emails; without `usageMail` (tests, tools) they are only marked. */
  private async sendUsage(notices: UsageNotice[]): Promise<void> {
    const usage = this.opts.usageMail;
    if (!usage) return;
    try {
      for (const err of await sendUsageEmails(this.orm, usage.mailer, notices)) usage.onFailed(err);
    } catch (err) {
      usage.onFailed(err);
    }
  }

  /** The stored outcome of a key already committed on this source; undefined when there is none yet. */
  private async storedAnswer(tokenHash: string, idempotency: { key: string; fingerprint: string }): Promise<AcceptOutcome | undefined> {
    const row = await knexOf(this.orm)('alert_sources as s')
      .leftJoin('idempotency_records as r', (on) => on.on('r.source_id', 's.id').andOnVal('r.key', idempotency.key).andOnVal('r.expires_at', '>', new Date()))
      .select('s.status', 'r.fingerprint', 'r.event_id', 'r.incident_id')
      .where({ 's.token_hash': tokenHash })
      .whereIn('s.status', ['ACTIVE', 'PAUSED'])
      .first();
    if (!row) return { kind: 'unknown_source' };
    if (row.status === 'PAUSED') return { kind: 'paused' };
    if (row.fingerprint === null || row.fingerprint === undefined) return undefined;
    if (row.fingerprint !== idempotency.fingerprint) return { kind: 'conflict' };
    return { kind: 'duplicate', event_id: nullIfNil(row.event_id), incident_id: nullIfNil(row.incident_id) };
  }
}

/** Resolves on a later turn of the event loop, after the I/O and timers already due. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** planIngest, a slice per turn of the event loop: other requests are served between slices. */
async function planInTurns(body: unknown, headers: IngestHeaders, form: PlainForm): Promise<IngestPlan> {
  const steps = planIngestInSlices(body, headers, form);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

function answerOf(outcome: AcceptOutcome): IngestAnswer {
  switch (outcome.kind) {
    case 'unknown_source':
      throw notFound(UNKNOWN_SOURCE);
    case 'paused':
      throw locked('this webhook is paused: nothing is stored until it is resumed', 'webhook_paused');
    case 'conflict':
      throw conflict('this Idempotency-Key was already used with a different payload', 'idempotency_conflict');
    case 'over_quota':
      throw new AlertQuotaReached(outcome.refusal);
    case 'failed':
      throw outcome.error;
    case 'duplicate':
      return { status: 'accepted', event_id: outcome.event_id, incident_id: outcome.incident_id, duplicate: true };
    case 'accepted': {
      const first = outcome.events[0];
      const answer: IngestAnswer = { status: 'accepted', event_id: first?.event_id ?? null, incident_id: first?.incident_id ?? null, duplicate: false };
      if (outcome.events.length > 1) answer.events = outcome.events.map(({ event_id, incident_id, action }) => ({ event_id, incident_id, action }));
      return answer;
    }
  }
}
