/** Maintenance windows as the dashboard reads them (docs/maintenance-windows.md). */
export interface MaintenanceWindow {
  id: string;
  service_ids: string[];
  starts_at: string;
  ends_at: string;
  reason: string;
  state: 'scheduled' | 'active' | 'ended';
  ended_early_at: string | null;
  created_by: string | null;
  created_at: string;
}

/** Every window query starts with this key, so one change refreshes them all. */
export const MAINTENANCE_KEY = ['maintenance-windows'] as const;

/** The active windows of a service, or of the whole workspace. */
export const activeWindowsPath = (serviceId?: string) => `/maintenance-windows?${serviceId ? `service_id=${serviceId}&` : ''}state=active`;

/** The latest end among windows: until when a service is in maintenance. */
export const heldUntil = (windows: MaintenanceWindow[]): MaintenanceWindow | null =>
  windows.reduce<MaintenanceWindow | null>((last, w) => (!last || w.ends_at > last.ends_at ? w : last), null);

/** A local date-time input's value (no zone) as an ISO instant, or undefined when empty. */
export const isoFromLocal = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);
