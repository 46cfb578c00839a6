/** Prometheus Alertmanager `webhook_config` (also Mimir, Cortex, Grafana Cloud Alertmanager). */
import type { NativeSender } from '../types';
import { isAlertBatch, normaliseAlertBatch } from './alert-batch';

/** Alertmanager: the batch envelope with `version` "4". */
export const alertmanagerSender: NativeSender = {
  name: 'alertmanager',
  detect: (body) => isAlertBatch(body) && body.version === '4',
  normalise: (body) => normaliseAlertBatch(body, 'alertmanager'),
};
