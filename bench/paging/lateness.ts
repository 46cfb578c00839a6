/** Per step after the first: lateness (SMS arrival − planned) and its two parts, in ms. */
export interface Lateness {
  total: number[];
  /** Planned → the workflow woke: the timer firing and the workflow task reaching the worker. */
  wake: number[];
  /** Woke → SMS at Twilio: the recipients lookup, the send activity and the provider call. */
  page: number[];
  /** Step pages that have a planned time but no SMS. */
  missing: number;
}

/**
 * Planned time of step k+1 = when step k woke + step k's delay (`delaysMs[k]`), as the workflow
 * plans it. `smsAt(incidentId, step)` is the SMS arrival at the fake for that step, if any.
 */
export function stepLateness(woke: Map<string, number[]>, delaysMs: number[], smsAt: (incidentId: string, step: number) => number | undefined): Lateness[] {
  const out: Lateness[] = [];
  for (let k = 1; k < delaysMs.length; k++) {
    const l: Lateness = { total: [], wake: [], page: [], missing: 0 };
    for (const [id, times] of woke) {
      const planned = times[k - 1] + delaysMs[k - 1];
      if (Number.isNaN(planned)) continue;
      const at = smsAt(id, k);
      if (at === undefined || Number.isNaN(times[k] ?? NaN)) {
        l.missing++;
        continue;
      }
      l.total.push(at - planned);
      l.wake.push(times[k] - planned);
      l.page.push(at - times[k]);
    }
    out.push(l);
  }
  return out;
}
