/** Seconds in words, for periods, intervals and response times: "90 s" → "1 min 30 s", 86400 → "1 d". */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  if (seconds < 60) return `${Math.round(seconds * 10) / 10} s`;
  const units: Array<[string, number]> = [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1],
  ];
  const parts: string[] = [];
  let rest = Math.round(seconds);
  for (const [unit, size] of units) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n} ${unit}`);
    rest -= n * size;
  }
  // Two units say enough: "2 d 3 h", not "2 d 3 h 12 min 5 s".
  return parts.slice(0, 2).join(' ');
}
