import { Alert, Text } from '@mantine/core';
import { useApiQuery } from '../api/hooks';
import { exactTime } from '../time/format';
import { useTimeZone } from '../time/useTimeZone';
import { activeWindowsPath, heldUntil, MAINTENANCE_KEY, type MaintenanceWindow } from './maintenance';

/**
 * While a maintenance window of the service lasts: its reason and end, and that its incidents
 * page nobody until then. `pagingHeldUntil`: this incident's own paging is held until then. Times
 * are in the person's zone (My profile's, else the browser's).
 */
export function MaintenanceBanner({ serviceId, pagingHeldUntil }: { serviceId: string; pagingHeldUntil?: string | null }) {
  const windows = useApiQuery<MaintenanceWindow[]>([...MAINTENANCE_KEY, 'active', serviceId], activeWindowsPath(serviceId), { refetchInterval: 30_000 });
  const window = heldUntil(windows.data ?? []);
  const zone = useTimeZone();
  if (!window && !pagingHeldUntil) return null;
  return (
    <Alert color="yellow" title="Maintenance window" role="status" aria-label="Maintenance window">
      {window && (
        <Text size="sm">
          “{window.reason}” until {exactTime(window.ends_at, zone)}: incidents of this service page nobody until then; those still triggered page when it ends.
        </Text>
      )}
      {pagingHeldUntil && (
        <Text size="sm" fw={600}>
          Paging of this incident is held until {exactTime(pagingHeldUntil, zone)}.
        </Text>
      )}
    </Alert>
  );
}
