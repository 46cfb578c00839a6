import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { zeroCounts, type ImportKind, type ImportReport, type ImportSystem } from '../../domain/importers/plan';
import type { Role } from '../../domain/roles';
import type { AccountMailer } from '../accounts/mailer';
import type { AuditActor } from '../audit';
import { DomainError } from '../errors';
import { mappingKey, saveMapping, type Mappings } from './mappings';

/** Who runs an import and with what: the same from the CLI (the system) and the dashboard (a member). */
export interface ImportActor {
  audit: AuditActor;
  /** The inviting member, or null for the CLI operator. */
  userId: string | null;
  role: Role;
}

/** What applying a plan needs besides the plan. */
export interface ImportDeps {
  orm: MikroORM;
  /** Invitations to people who are not members yet. */
  mailer: AccountMailer;
  appUrl: string;
  /** Where new sources' ingestion URLs point. */
  ingestBaseUrl: string;
  /** Seals a new source's URL secret so the dashboard can show it later. */
  seal?: (plaintext: string) => string;
}

/** Ids of objects a dry run would create: they resolve (so what refers to them is planned) but are not ids. */
export const PENDING = 'pending:';
export const isPending = (id: string | null | undefined): boolean => typeof id === 'string' && id.startsWith(PENDING);

/** One run's state: the report being built and the external ids resolved so far, per kind. */
export class ImportRun {
  readonly report: ImportReport = { created: zeroCounts(), updated: zeroCounts(), skipped: [], mapping: [] };
  /** External id → Klaxon id (or a PENDING placeholder in a dry run), per kind; missing: not brought in. */
  readonly ids: Record<ImportKind, Map<string, string>> = {
    user: new Map(),
    contact_method: new Map(),
    notification_rule: new Map(),
    team: new Map(),
    schedule: new Map(),
    escalation_policy: new Map(),
    service: new Map(),
    source: new Map(),
  };
  /**
   * People who are not paged from Klaxon, by external id, with their email: invited instead of
   * added (their account is outside this workspace), or Stakeholders. Rotations, overrides and
   * steps leave them out and say why.
   */
  readonly leftOut = new Map<string, { email: string; why: string; invited: boolean }>();
  /** Where invited people were left out (written for readiness after a real run: left-out.ts). */
  readonly leftOutPlaces: Array<{ externalId: string; email: string; schedule?: string; policy?: string; place: string }> = [];

  constructor(
    readonly deps: ImportDeps,
    readonly knex: Knex,
    readonly organizationId: string,
    readonly system: ImportSystem,
    /** The system as people name it ("PagerDuty", the registry importer's label): invitation emails. */
    readonly systemLabel: string,
    readonly dryRun: boolean,
    readonly actor: ImportActor,
    readonly mappings: Mappings,
  ) {}

  skip(kind: ImportKind, externalId: string, name: string, why: string): void {
    this.report.skipped.push({ kind, external_id: externalId, name, why });
  }

  /** The Klaxon id an earlier import recorded for an external object. */
  mapped(kind: string, externalId: string): string | undefined {
    return this.mappings.get(mappingKey(kind, externalId));
  }

  /** The object is (or would be) in Klaxon as `id`: resolvable by later kinds, listed in the report's mapping. */
  resolve(kind: ImportKind, externalId: string, id: string, name: string): void {
    this.ids[kind].set(externalId, id);
    this.report.mapping.push({ kind, external_id: externalId, id: isPending(id) ? null : id, name });
  }

  /** Records the mapping (not in a dry run). */
  async remember(kind: string, externalId: string, klaxonId: string): Promise<void> {
    if (this.dryRun || this.mapped(kind, externalId) === klaxonId) return;
    await saveMapping(this.knex, { organizationId: this.organizationId, system: this.system, kind, externalId, klaxonId });
    this.mappings.set(mappingKey(kind, externalId), klaxonId);
  }

  /** A placeholder id in a dry run. */
  pending(kind: ImportKind, externalId: string): string {
    return `${PENDING}${kind}:${externalId}`;
  }

  /**
   * Runs one object's writes; a refusal by the services (a plan limit, a taken routing key, an
   * input Klaxon rejects) skips that object with the refusal as why, and the import goes on.
   */
  async attempt<T>(kind: ImportKind, externalId: string, name: string, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      this.skip(kind, externalId, name, `Klaxon refused it: ${err.message}`);
      return undefined;
    }
  }
}

/** Names fit Klaxon's columns. */
export const fit = (name: string, max = 255): string => (name.length > max ? name.slice(0, max) : name);
