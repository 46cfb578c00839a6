import { condition, patched } from '@temporalio/workflow';
import { DEFAULT_AUTO_CLOSE_HOURS } from '../../src/domain/incident-lifecycle';
import type { IncidentWorkflowInput } from '../../src/contracts/workflows';
import type { IncidentEntity } from './entity';

/**
 * Patch id recorded in histories: never rename. Runs that were RESOLVED before it (their
 * histories hold no marker there) wait for a person to close them, as they always did.
 */
export const AUTO_CLOSE_PATCH = 'auto-close-resolved';

/** What the auto-close reads of its incident, and asks of it (under the incident's lock). */
export type AutoClosedIncident = Pick<IncidentEntity, 'status' | 'moves' | 'autoClose'>;

/**
 * Closes an incident left RESOLVED for `autoCloseSeconds` (docs/architecture.md, "Incidents"), so its workflow does
 * not live forever. A workflow timer: it survives worker and server restarts, and its deadline
 * is carried across continueAsNew. Any move (a reopen, a close by hand) ends the wait.
 */
export class AutoCloser {
  private readonly afterSeconds: number;
  /** When the current RESOLVED spell's close is due; null outside one. */
  private deadlineMs: number | null;

  constructor(
    private readonly incident: AutoClosedIncident,
    input: Pick<IncidentWorkflowInput, 'status' | 'autoCloseSeconds' | 'autoCloseAtMs'>,
  ) {
    this.afterSeconds = input.autoCloseSeconds ?? DEFAULT_AUTO_CLOSE_HOURS * 3600;
    // A deadline only means something for the RESOLVED spell it was carried from.
    this.deadlineMs = input.status === 'RESOLVED' ? (input.autoCloseAtMs ?? null) : null;
  }

  /** What a continued run resumes from: the pending close's deadline, while RESOLVED. */
  snapshot(): Pick<IncidentWorkflowInput, 'autoCloseAtMs'> {
    return { autoCloseAtMs: this.incident.status === 'RESOLVED' && this.deadlineMs !== null ? this.deadlineMs : undefined };
  }

  /** Runs until `stopped()` (the run is ending): one timer per RESOLVED spell. */
  async run(stopped: () => boolean): Promise<void> {
    for (;;) {
      await condition(() => stopped() || this.incident.status === 'RESOLVED');
      if (stopped()) return;
      const spell = this.incident.moves;
      const sameSpell = () => this.incident.moves === spell;
      if (patched(AUTO_CLOSE_PATCH)) {
        this.deadlineMs ??= Date.now() + this.afterSeconds * 1000;
        const moved = await condition(() => stopped() || !sameSpell(), Math.max(1, this.deadlineMs - Date.now()));
        if (!moved) await this.incident.autoClose(sameSpell, this.afterSeconds);
      }
      await condition(() => stopped() || !sameSpell());
      // A move ended the spell: the next RESOLVED one waits the whole time again.
      if (!sameSpell()) this.deadlineMs = null;
      if (stopped()) return;
    }
  }
}
