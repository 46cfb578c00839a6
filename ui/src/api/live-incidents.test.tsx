import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLiveIncidents } from './hooks';

/** The browser's EventSource, as far as the hook uses it: the test sends the server's events. */
class FakeEventSource {
  static last: FakeEventSource;
  readonly listeners = new Map<string, Array<(e: MessageEvent) => void>>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, listener: (e: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  send(type: string, data: unknown = {}) {
    for (const l of this.listeners.get(type) ?? []) l(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
  close() {
    this.closed = true;
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function live() {
  const client = new QueryClient();
  const invalidated = vi.spyOn(client, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const hook = renderHook(() => useLiveIncidents(true), { wrapper });
  const keys = () => invalidated.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
  return { hook, keys };
}

describe('live incident updates', () => {
  it('when a storm of events arrives at once, then the list is fetched again once, and each incident named is fetched again', async () => {
    const { keys } = live();
    expect(FakeEventSource.last.url).toBe('/api/events');
    for (let i = 0; i < 50; i++) FakeEventSource.last.send('incident', { id: `i${i % 3}` });
    expect(keys()).toEqual([]);
    await vi.advanceTimersByTimeAsync(500);
    expect(keys().filter((k) => k === '["incidents"]')).toHaveLength(1);
    expect(
      keys()
        .filter((k) => k.startsWith('["incident",'))
        .sort(),
    ).toEqual(['["incident","i0"]', '["incident","i1"]', '["incident","i2"]']);
  });

  it('when events keep coming, then each moment gets its own fetch; a resync fetches the lists', async () => {
    const { keys } = live();
    FakeEventSource.last.send('incident', { id: 'a' });
    await vi.advanceTimersByTimeAsync(500);
    FakeEventSource.last.send('resync');
    await vi.advanceTimersByTimeAsync(500);
    expect(keys().filter((k) => k === '["incidents"]')).toHaveLength(2);
    expect(keys().filter((k) => k === '["incident","a"]')).toHaveLength(1);
  });

  it('when the page leaves, then the stream is closed and nothing is fetched afterwards', async () => {
    const { hook, keys } = live();
    FakeEventSource.last.send('incident', { id: 'a' });
    hook.unmount();
    expect(FakeEventSource.last.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(keys()).toEqual([]);
  });
});
