import { ApplicationFailure } from '@temporalio/workflow';
import {
  decideTransition,
  type IncidentStatus,
  type LifecycleOperation,
  type TransitionOutcome,
} from '../../src/domain/incident-lifecycle';
import { INVALID_TRANSITION, type IncidentWorkflowInput } from '../definitions';

/** The incident's state inside the workflow: a plain class so handlers stay one-liners. */
export class IncidentState {
  status: IncidentStatus;
  seq: number;
  /** Status moves applied in this run: an escalation spell lasts while this stays the same. */
  moves = 0;

  constructor(input: IncidentWorkflowInput) {
    this.status = input.status;
    this.seq = input.seq;
  }

  /** Decides an operation against the current state; throws the failure the API maps to 409. */
  decide(op: LifecycleOperation): Exclude<TransitionOutcome, { kind: 'invalid' }> {
    const outcome = decideTransition(this.status, op);
    if (outcome.kind === 'invalid') {
      throw ApplicationFailure.create({
        type: INVALID_TRANSITION,
        message: outcome.message,
        nonRetryable: true,
        details: [this.status],
      });
    }
    return outcome;
  }

  /** Records a move the projection has committed. */
  apply(to: IncidentStatus, seq: number): void {
    this.status = to;
    this.seq = seq;
    this.moves += 1;
  }
}
