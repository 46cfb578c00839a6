import { Badge, Box, Group, Paper, Stack, Text } from '@mantine/core';
import { dayChange, entriesOfDay, type CalendarDay, type DayEntry } from './calendar';
import { personLabel } from '../components/people';
import type { ScheduleOverride, Shift } from './types';

const COLORS = ['blue', 'teal', 'grape', 'orange', 'cyan', 'pink', 'lime', 'indigo'];

/** True when an override of someone on this shift covers all of it. */
const isOverride = (shift: Shift, overrides: readonly ScheduleOverride[]) =>
  overrides.some((o) => shift.user_ids.includes(o.user_id) && Date.parse(o.from) <= Date.parse(shift.start) && Date.parse(o.to) >= Date.parse(shift.end));

const whoOf = (shift: Shift) => (shift.users.length ? shift.users.map((u) => personLabel(u)).join(' & ') : 'Nobody on call');

/**
 * Who is on call, one row per local day of `zone`: a bar of the day's shifts (colour per person)
 * and, for each, the person and the local start–end of its part of the day. Each day and each
 * entry is a list item named in words, so screen readers and tests read the same thing.
 */
export function ScheduleCalendar({
  shifts,
  days,
  zone,
  overrides = [],
}: {
  shifts: readonly Shift[];
  days: readonly CalendarDay[];
  zone: string;
  overrides?: readonly ScheduleOverride[];
}) {
  const order = [...new Set(shifts.flatMap((s) => s.user_ids))];
  const colorOf = (s: Shift) =>
    s.user_ids.length ? `var(--mantine-color-${COLORS[order.indexOf(s.user_ids[0]) % COLORS.length]}-4)` : 'var(--mantine-color-gray-3)';
  return (
    <Stack component="ol" aria-label="On call, day by day" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
      {days.map((day) => {
        const entries = entriesOfDay(shifts, day, zone);
        const change = dayChange(day);
        return (
          <Paper component="li" key={day.key} withBorder p="xs" radius="sm" aria-label={day.label}>
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text fw={600} size="sm">
                {day.label}
              </Text>
              {change && (
                <Badge variant="light" color="yellow">
                  {change}
                </Badge>
              )}
            </Group>
            <DayBar entries={entries} day={day} colorOf={colorOf} />
            {entries.length === 0 ? (
              <Text size="sm" c="dimmed">
                No shifts
              </Text>
            ) : (
              <Stack component="ul" gap={2} p={0} m={0} style={{ listStyle: 'none' }} aria-label={`Shifts on ${day.label}`}>
                {entries.map((e) => (
                  <Entry key={e.shift.start} entry={e} override={isOverride(e.shift, overrides)} color={colorOf(e.shift)} />
                ))}
              </Stack>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}

function Entry({ entry, override, color }: { entry: DayEntry; override: boolean; color: string }) {
  const who = whoOf(entry.shift);
  const name = `${who}, ${entry.from} to ${entry.to}${override ? ', override' : ''}`;
  return (
    <Group component="li" gap="xs" wrap="wrap" aria-label={name}>
      <Box w={10} h={10} style={{ background: color, borderRadius: 2, flex: 'none' }} aria-hidden />
      <Text size="sm" ff="monospace" aria-hidden>
        {entry.continuedFrom ? '… ' : ''}
        {entry.from}–{entry.to}
        {entry.continues ? ' …' : ''}
      </Text>
      <Text size="sm" fw={500} c={entry.shift.users.length ? undefined : 'red'} aria-hidden>
        {who}
      </Text>
      {override && (
        <Badge size="xs" variant="outline" aria-hidden>
          override
        </Badge>
      )}
    </Group>
  );
}

/** The day as a bar: each shift's share of its 23, 24 or 25 hours. Decorative; the list says it in words. */
function DayBar({ entries, day, colorOf }: { entries: DayEntry[]; day: CalendarDay; colorOf: (s: Shift) => string }) {
  if (entries.length === 0) return null;
  return (
    <Group gap={1} wrap="nowrap" my={4} h={8} aria-hidden style={{ borderRadius: 4, overflow: 'hidden' }}>
      {entries.map((e) => (
        <Box key={e.shift.start} h="100%" style={{ width: `${(e.hours / day.hours) * 100}%`, background: colorOf(e.shift) }} />
      ))}
    </Group>
  );
}
