import { exactTime, relativeTime } from './format';
import { useNow, useTimeZone } from './useTimeZone';

/** A time as "3 min ago", the exact time in `zone` on hover (and to screen readers through `title`). Lists pass one `now` and `zone` to all rows. */
export function WhenAt({ iso, now, zone }: { iso: string; now: number; zone: string }) {
  return (
    <time dateTime={iso} title={exactTime(iso, zone)} style={{ textDecoration: 'underline dotted', cursor: 'help' }}>
      {relativeTime(iso, now)}
    </time>
  );
}

/** A time as "3 min ago", exact in the person's zone (My profile's, else the browser's) on hover. */
export function When({ iso }: { iso: string }) {
  return <WhenAt iso={iso} now={useNow()} zone={useTimeZone()} />;
}
