import { checkTargetUrl, MAX_TARGET_URL, type TargetVerdict } from '../targets';

/** HTTP methods a monitor checks with. */
export const MONITOR_METHODS = ['GET', 'HEAD', 'POST'] as const;
export type MonitorMethod = (typeof MONITOR_METHODS)[number];

/** Longest URL a monitor accepts. */
export const MAX_MONITOR_URL = MAX_TARGET_URL;

/**
 * Whether a URL may be a monitor's target: the shared guard (src/domain/targets), http allowed
 * for public hosts (a monitor reads a public page and sends no secret).
 */
export const checkMonitorUrl = (raw: string, opts: { allowPrivate: boolean }): TargetVerdict =>
  checkTargetUrl(raw, { allowPrivate: opts.allowPrivate, allowHttp: true, who: 'monitors check' });
