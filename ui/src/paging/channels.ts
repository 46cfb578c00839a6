import { useApiQuery } from '../api/hooks';

/** A paging channel as `GET /api/channels` answers it (the integrations' declarations, never a list kept in the dashboard). */
export interface PagingChannel {
  id: string;
  label: string;
  address_label: string;
  address_placeholder: string;
  drillable: boolean;
  testable: boolean;
}

/** The channels query: every page that lists channels shares it. */
export const CHANNELS_QUERY = ['channels'];

/** The paging channels, once the server answered. */
export function useChannels(): PagingChannel[] | undefined {
  return useApiQuery<{ channels: PagingChannel[] }>(CHANNELS_QUERY, '/channels').data?.channels;
}
