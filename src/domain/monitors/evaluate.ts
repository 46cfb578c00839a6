/** What a check saw: the final response's status and (up to a bound) its body. */
export interface CheckResponse {
  status: number;
  body: string;
}

/** How a monitor judges a response. */
export interface Expectation {
  /** Status codes that count as up; null: any 2xx. */
  expectedStatusCodes: readonly number[] | null;
  /** Text the body must contain; null: none asked for. */
  keyword: string | null;
}

export type Verdict = { ok: true; error: null } | { ok: false; error: string };

/** Judges a response: the status first, then the keyword (case-sensitive, as written). */
export function evaluateResponse(res: CheckResponse, expect: Expectation): Verdict {
  const statusOk = expect.expectedStatusCodes ? expect.expectedStatusCodes.includes(res.status) : res.status >= 200 && res.status < 300;
  if (!statusOk) {
    const wanted = expect.expectedStatusCodes ? expect.expectedStatusCodes.join(', ') : '2xx';
    return { ok: false, error: `unexpected status ${res.status} (expected ${wanted})` };
  }
  if (expect.keyword !== null && !res.body.includes(expect.keyword)) return { ok: false, error: `keyword "${expect.keyword}" not found in the response` };
  return { ok: true, error: null };
}
