import { ownAddress } from '../../src/net';
import { canaryAlert, canaryDeadlineMs, canaryDedupKey, canaryStatusProblem, shouldPing, watchdogUrlProblem } from '../../src/domain/watchdog';

describe('the watchdog’s rules (docs/reliability.md)', () => {
  it('when the last canary success is younger than two intervals, then it pings; older, or none yet, never', () => {
    expect(shouldPing(0, 60)).toBe(true);
    expect(shouldPing(119_999, 60)).toBe(true);
    expect(shouldPing(120_000, 60)).toBe(false);
    expect(shouldPing(3_600_000, 60)).toBe(false);
    expect(shouldPing(null, 60)).toBe(false);
    expect(shouldPing(Number.NaN, 60)).toBe(false);
    expect(shouldPing(15_000, 10)).toBe(true);
    expect(shouldPing(20_000, 10)).toBe(false);
  });

  it('when the canary has not passed for two intervals (or never, two intervals after the watchdog started), then /api/status says so; as long as it pings, not', () => {
    const now = new Date('2026-11-29T12:00:00.000Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const watchdog = { intervalSeconds: 60, startedAt: ago(3_600_000) };
    const lastAt = ago(120_000);
    expect(canaryStatusProblem({ at: ago(119_999), ageMs: 119_999 }, watchdog, now)).toBeNull();
    expect(canaryStatusProblem({ at: lastAt, ageMs: 120_000 }, watchdog, now)).toBe(
      'the watchdog canary has not passed since 2026-11-29T11:58:00.000Z: alert → workflow → page is broken somewhere',
    );
    expect(canaryStatusProblem(null, watchdog, now)).toBe(
      'the watchdog canary has not passed since the watchdog started (2026-11-29T11:00:00.000Z): alert → workflow → page is broken somewhere',
    );
    // Its first runs get their chance: nothing for two intervals after this process's watchdog started, whatever the last success.
    for (const startedAt of [ago(120_000), ago(1_000)]) {
      expect(canaryStatusProblem(null, { intervalSeconds: 60, startedAt }, now)).toBeNull();
      expect(canaryStatusProblem({ at: ago(86_400_000), ageMs: 86_400_000 }, { intervalSeconds: 60, startedAt }, now)).toBeNull();
    }
    expect(canaryStatusProblem(null, { intervalSeconds: 60, startedAt: ago(120_001) }, now)).toEqual(expect.any(String));
  });

  it('when a run starts, then it has 30 s for its page, or the interval when shorter', () => {
    expect(canaryDeadlineMs(60)).toBe(30_000);
    expect(canaryDeadlineMs(10)).toBe(10_000);
    expect(canaryDeadlineMs(3600)).toBe(30_000);
  });

  it('when a run posts its alert, then it is a Form A event whose dedup key names the run', () => {
    const alert = canaryAlert('7d1c2b3a-0000-4000-8000-000000000001');
    expect(alert).toMatchObject({ severity: 'critical', dedup_key: canaryDedupKey('7d1c2b3a-0000-4000-8000-000000000001') });
    expect(alert.dedup_key).toBe('klaxon-canary:7d1c2b3a-0000-4000-8000-000000000001');
  });

  it('when WATCHDOG_URL is https, or http to this machine only, then it is accepted; otherwise the problem is said without the URL', () => {
    for (const ok of [
      'https://hc-ping.com/abc',
      'https://uptime.betterstack.com/api/v1/heartbeat/tok',
      'http://127.0.0.1:8080/p',
      'http://localhost/p',
      'http://[::1]:1/p',
    ])
      expect({ ok, problem: watchdogUrlProblem(ok) }).toEqual({ ok, problem: null });
    for (const bad of ['http://hc-ping.com/abc', 'http://10.0.0.1/abc', 'hc-ping.com/abc', 'https://u:p@hc-ping.com/abc', 'file:///etc/passwd']) {
      const problem = watchdogUrlProblem(bad);
      expect(problem).toEqual(expect.any(String));
      expect(problem).not.toContain('abc');
    }
  });

  it('when the listeners bind every interface, then the canary posts to its own by loopback; a given address as it is, IPv6 bracketed', () => {
    expect(['0.0.0.0', '::', '127.0.0.1', '10.0.0.5', 'fe80::1', '[::1]', 'klaxon.internal'].map(ownAddress)).toEqual([
      '127.0.0.1',
      '[::1]',
      '127.0.0.1',
      '10.0.0.5',
      '[fe80::1]',
      '[::1]',
      'klaxon.internal',
    ]);
  });
});
