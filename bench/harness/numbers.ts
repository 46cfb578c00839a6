/** `x` rounded to `digits` decimals. */
export const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** `n` things in `ms` milliseconds, per second; NaN when no time passed. */
export const perS = (n: number, ms: number) => (ms > 0 ? n / (ms / 1000) : NaN);
