/** Incident severities, highest first. Input is accepted in any case and stored upper case. */
export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Normalises a caller's severity; undefined when it is not one of ours. */
export function parseSeverity(value: string): Severity | undefined {
  const upper = value.trim().toUpperCase();
  return (SEVERITIES as readonly string[]).includes(upper) ? (upper as Severity) : undefined;
}
