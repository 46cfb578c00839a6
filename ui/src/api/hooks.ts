import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, describeError, setCsrfToken } from './client';
import { fieldOf, messageFor } from './field-errors';
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

/** The incident list, newest first, 50 at a time ("Show older" fetches the next page by cursor). */
export function useIncidents(filters: IncidentFilters) {
  const base = Object.entries(filters).filter(([, v]) => v) as Array<[string, string]>;
  return useInfiniteQuery({
    queryKey: ['incidents', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => {
      const query = new URLSearchParams([...base, ['limit', '50'], ...(pageParam ? [['cursor', pageParam] as [string, string]] : [])]);
      const res = await api<Incident[]>('GET', `/incidents?${query}`);
      const meta = res.meta as { counts: Record<string, number>; next_cursor: string | null };
      return { incidents: res.data, counts: meta.counts, nextCursor: meta.next_cursor ?? undefined };
    },
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** Pages still on their way, or an escalation that may page again: worth another look soon. */
const PENDING_PAGE = new Set(['queued', 'sent']);
const stillPaging = (i: IncidentDetail | undefined) => !!i && (i.status === 'TRIGGERED' || i.pages.some((p) => PENDING_PAGE.has(p.status)));

/**
 * One incident with its alerts, timeline and pages. The event stream announces status changes;
 * pages and their delivery receipts are not announced, so while it may still page, it is fetched
 * again every few seconds.
 */
export function useIncident(id: string) {
  return useQuery({
    queryKey: ['incident', id],
    queryFn: async () => (await api<IncidentDetail>('GET', `/incidents/${id}`)).data,
    refetchInterval: (query) => (stillPaging(query.state.data) ? 3_000 : false),
  });
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
    // An alert storm sends many events a second: they are gathered for a moment and fetched
    // once, instead of one list fetch per event (each cancelling the one before).
    const changed = new Set<string>();
    let pending: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      pending = undefined;
      void client.invalidateQueries({ queryKey: ['incidents'] });
      // A new or escalating incident usually pages someone: the bell may have news too.
      void client.invalidateQueries({ queryKey: ['unread'] });
      for (const id of changed) void client.invalidateQueries({ queryKey: ['incident', id] });
      changed.clear();
    };
    const refresh = (id?: string) => {
      if (id) changed.add(id);
      pending ??= setTimeout(flush, LIVE_GATHER_MS);
    };
    source.addEventListener('incident', (e) => refresh((JSON.parse((e as MessageEvent).data) as { id: string }).id));
    source.addEventListener('resync', () => refresh());
    return () => {
      source.close();
      clearTimeout(pending);
    };
  }, [enabled, client]);
}

/** How long live events are gathered before the lists are fetched again. */
const LIVE_GATHER_MS = 300;

/** A GET of /api whose `data` is the answer (the lists and objects of the admin pages). */
export function useApiQuery<T>(queryKey: QueryKey, path: string, options: { enabled?: boolean; refetchInterval?: number } = {}) {
  return useQuery({ queryKey, queryFn: async () => (await api<T>('GET', path)).data, ...options });
}

/**
 * A change sent to /api. On success the named queries are fetched again; on failure the
 * server's message is kept with the field it names (`steps.0.delay_seconds: …`), so a form can
 * show it next to that field (`fieldError`) or above the form when it names none (`formError`).
 */
export function useAction<TVars = void, TData = unknown>(
  run: (vars: TVars) => Promise<TData>,
  options: { invalidate?: QueryKey[]; onSuccess?: (data: TData, vars: TVars) => void } = {},
) {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: run,
    onSuccess: async (data, vars) => {
      await Promise.all((options.invalidate ?? []).map((queryKey) => client.invalidateQueries({ queryKey })));
      options.onSuccess?.(data, vars);
    },
  });
  const message = mutation.error ? describeError(mutation.error) : undefined;
  const field = fieldOf(message);
  return {
    ...mutation,
    /** The error when it names `name` or a field inside it (`steps` matches `steps.0.targets`). */
    fieldError: (name: string) => messageFor(message, name),
    /** The error when it names no field. */
    formError: field ? undefined : message,
    /** The error, whatever it names. */
    errorMessage: message,
  };
}
