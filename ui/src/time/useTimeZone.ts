import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { browserTimeZone } from './format';

/** My profile as the dashboard reads it (GET /api/profile). */
export interface Profile {
  id: string;
  email: string;
  name: string | null;
  role: string;
  /** IANA zone; null: the browser's zone is used. */
  time_zone: string | null;
}

export const PROFILE_KEY = ['profile'] as const;

/** The signed-in member's profile. */
export function useProfile() {
  return useQuery({ queryKey: PROFILE_KEY, queryFn: async () => (await api<Profile>('GET', '/profile')).data, staleTime: 5 * 60_000 });
}

/** The zone times are shown in: My profile's, else the browser's (also while the profile loads or if it cannot be read). */
export function useTimeZone(): string {
  const profile = useProfile();
  return profile.data?.time_zone ?? browserTimeZone();
}

/** Now, moving on every `everyMs`: relative times ("3 min ago") stay true on a page left open. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
