/** Grafana unified alerting webhook contact point. */
import type { NativeSender } from '../types';
import { isAlertBatch, normaliseAlertBatch } from './alert-batch';

/** Grafana: the batch envelope with `version` "1", `orgId` and `state`. */
export const grafanaSender: NativeSender = {
  name: 'grafana',
  detect: (body) => isAlertBatch(body) && body.version === '1' && 'orgId' in body && 'state' in body,
  // The top-level title/message describe the whole group; each alert carries its own.
  normalise: (body) => normaliseAlertBatch(body, 'grafana'),
};
