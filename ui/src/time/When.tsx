import { exactTime, relativeTime } from './format';
import { useNow, useTimeZone } from './useTimeZone';

/** A time as "3 min ago", the exact time in the person's zone on hover (and to screen readers through `title`). */
export function When({ iso }: { iso: string }) {
  const zone = useTimeZone();
  const now = useNow();
  return (
    <time dateTime={iso} title={exactTime(iso, zone)} style={{ textDecoration: 'underline dotted', cursor: 'help' }}>
      {relativeTime(iso, now)}
    </time>
  );
}
