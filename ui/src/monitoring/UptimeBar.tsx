import { Box, Group, Text } from '@mantine/core';
import type { UptimeFigures } from './types';
import { dayTitle, formatPercent, uptimeColor, uptimeDays, uptimeLabel } from './uptime';

/**
 * One segment per day of the last 30, coloured by availability; the bar's accessible name gives
 * the 30-day figure and each segment's title (tooltip) its day's.
 */
export function UptimeBar({ name, figures, createdAt, now = new Date() }: { name: string; figures: UptimeFigures | undefined; createdAt: string; now?: Date }) {
  const days = uptimeDays(figures?.daily, createdAt, now);
  const month = figures?.availability['30d'] ?? null;
  return (
    <Group gap={6} wrap="nowrap" miw={0}>
      <Group role="img" aria-label={uptimeLabel(name, month)} gap={2} wrap="nowrap" h={22} style={{ flex: 1, minWidth: 90, maxWidth: 300 }}>
        {days.map((d) => {
          const color = uptimeColor(d.availability);
          return (
            <Box
              key={d.end.getTime()}
              title={dayTitle(d)}
              data-color={color}
              h="100%"
              style={{ flex: 1, minWidth: 1, borderRadius: 2, background: `var(--mantine-color-${color}-${color === 'gray' ? 3 : 6})` }}
            />
          );
        })}
      </Group>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} aria-hidden>
        {month === null ? 'no data' : formatPercent(month)}
      </Text>
    </Group>
  );
}
