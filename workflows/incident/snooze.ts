import { condition } from '@temporalio/workflow';
import type { IncidentEntity } from './entity';

/** What the snooze timer reads of its incident, and asks of it (under the incident's lock). */
export type SnoozedIncident = Pick<IncidentEntity, 'snoozedUntilMs' | 'snoozes' | 'snoozeEnded'>;

/**
 * The snooze timer (docs/responding.md): while a snooze is set, a workflow timer runs to its end
 * (it survives worker and server restarts; its end is carried across continueAsNew), then the
 * incident returns to TRIGGERED and escalation pages again from the first step. A move meanwhile
 * (resolve, investigate) clears the snooze; a new snooze restarts the timer.
 */
export class Snoozer {
  constructor(private readonly incident: SnoozedIncident) {}

  /** Runs until `stopped()` (the run is ending). No snooze, no timer: runs that never snooze record nothing. */
  async run(stopped: () => boolean): Promise<void> {
    for (;;) {
      await condition(() => stopped() || this.incident.snoozedUntilMs !== null);
      if (stopped()) return;
      const snooze = this.incident.snoozes;
      const untilMs = this.incident.snoozedUntilMs!;
      const changed = () => this.incident.snoozes !== snooze || this.incident.snoozedUntilMs === null;
      const woke = await condition(() => stopped() || changed(), Math.max(1, untilMs - Date.now()));
      if (!woke) await this.incident.snoozeEnded(snooze);
      else if (stopped()) return;
      // Ended, cleared by a move, or replaced: wait until this snooze is no longer the current one.
      await condition(() => stopped() || changed());
      if (stopped()) return;
    }
  }
}
