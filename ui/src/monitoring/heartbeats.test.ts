import { describe, expect, it } from 'vitest';
import { formatSeconds } from './durations';
import { heartbeatBody, heartbeatState } from './heartbeats';

describe('heartbeats', () => {
  const now = new Date('2026-12-01T12:00:00.000Z');
  const hb = { status: 'ACTIVE' as const, period_seconds: 3600, grace_seconds: 60, last_ping_at: '2026-12-01T11:00:00.000Z' };

  it('when the last ping is older than period + grace, then the heartbeat is late; before that it is up', () => {
    expect(heartbeatState(hb, now)).toBe('up');
    expect(heartbeatState(hb, new Date('2026-12-01T12:01:01.000Z'))).toBe('late');
    expect(heartbeatState({ ...hb, last_ping_at: null }, now)).toBe('waiting');
    expect(heartbeatState({ ...hb, status: 'PAUSED', last_ping_at: null }, now)).toBe('paused');
  });

  it('when grace is emptied, then it is left out so the server applies its default', () => {
    expect(heartbeatBody({ name: 'backup', service_id: 's1', period_seconds: 86400, grace_seconds: '' })).toEqual({
      name: 'backup',
      service_id: 's1',
      period_seconds: 86400,
    });
    expect(heartbeatBody({ name: 'backup', service_id: 's1', period_seconds: 86400, grace_seconds: 0 })).toEqual({
      name: 'backup',
      service_id: 's1',
      period_seconds: 86400,
      grace_seconds: 0,
    });
  });

  it('when seconds are shown, then they read as the largest two units', () => {
    expect([30, 90, 3600, 86_400, 93_784, 2_678_400].map(formatSeconds)).toEqual(['30 s', '1 min 30 s', '1 h', '1 d', '1 d 2 h', '31 d']);
  });
});
