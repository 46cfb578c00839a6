import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, setCsrfToken } from './client';
import type { Incident, IncidentDetail, SessionView } from './types';

/** The signed-in session (401 when there is none); remembers its CSRF value. */
export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      const { data } = await api<SessionView>('GET', '/auth/session');
      setCsrfToken(data.csrf_token);
      return data;
    },
    retry: false,
    staleTime: 60_000,
  });
}

export interface IncidentFilters {
  status?: string;
  severity?: string;
  service_id?: string;
  assigned?: 'me' | 'my_teams';
}

export function useIncidents(filters: IncidentFilters) {
  const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v) as Array<[string, string]>);
  query.set('limit', '100');
  return useQuery({
    queryKey: ['incidents', filters],
    queryFn: async () => {
      const res = await api<Incident[]>('GET', `/incidents?${query}`);
      return { incidents: res.data, counts: (res.meta as { counts: Record<string, number> }).counts };
    },
  });
}

export function useIncident(id: string) {
  return useQuery({ queryKey: ['incident', id], queryFn: async () => (await api<IncidentDetail>('GET', `/incidents/${id}`)).data });
}

/**
 * Live updates: the server's event stream (`/api/events`) says when an incident opens or changes
 * status; the lists and that incident are fetched again. EventSource reconnects by itself.
 */
export function useLiveIncidents(enabled: boolean) {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events');
    const refresh = (id?: string) => {
      void client.invalidateQueries({ queryKey: ['incidents'] });
      if (id) void client.invalidateQueries({ queryKey: ['incident', id] });
    };
    source.addEventListener('incident', (e) => refresh((JSON.parse((e as MessageEvent).data) as { id: string }).id));
    source.addEventListener('resync', () => refresh());
    return () => source.close();
  }, [enabled, client]);
}
