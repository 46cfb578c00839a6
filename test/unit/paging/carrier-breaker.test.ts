import { BREAKER_COOL_OFF_MS, BREAKER_WINDOW_MS, carrierHealth, orderByHealth, type CarrierOutcome } from '../../../src/domain/paging/carrier-breaker';

const now = new Date('2026-11-29T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
/** Outcomes of one carrier, newest last, a second apart, ending one second before `now`. */
const run = (carrier: string, oks: boolean[]): CarrierOutcome[] => oks.map((ok, i) => ({ carrier, ok, at: ago((oks.length - i) * 1000) }));
const healthOf = (outcomes: CarrierOutcome[], carrier = 'twilio') => carrierHealth(outcomes, now).find((h) => h.carrier === carrier)!;

describe('the carriers circuit breaker', () => {
  it('when a carrier failed most of at least five recent pages and the newest failed, then it is skipped until its newest failure plus the cool-off', () => {
    const outcomes = run('twilio', [true, false, false, true, false, false]);
    expect(healthOf(outcomes)).toEqual({ carrier: 'twilio', healthy: false, skippedUntil: new Date(ago(1000).getTime() + BREAKER_COOL_OFF_MS) });
    expect(healthOf(outcomes, 'vonage')).toEqual({ carrier: 'vonage', healthy: true, skippedUntil: null });
  });

  it('when fewer than five outcomes count, then even all failed does not open it: two bad numbers are not an outage', () => {
    expect(healthOf(run('twilio', [false, false, false, false])).healthy).toBe(true);
  });

  it('when exactly half failed, then it stays healthy: only most of them open it', () => {
    expect(healthOf(run('twilio', [true, false, true, false, true, false])).healthy).toBe(true);
  });

  it('when the newest outcome after failures is a success (the half-open trial passed), then it is healthy again', () => {
    expect(healthOf(run('twilio', [false, false, false, false, false, true])).healthy).toBe(true);
  });

  it('when the cool-off after the newest failure is over, then it is tried again', () => {
    const old = run('twilio', [false, false, false, false, false]).map((o) => ({ ...o, at: new Date(o.at.getTime() - BREAKER_COOL_OFF_MS) }));
    expect(healthOf(old).healthy).toBe(true);
  });

  it('when failures are older than the window, then they are not counted', () => {
    const stale = run('twilio', [false, false, false, false, false]).map((o) => ({ ...o, at: new Date(o.at.getTime() - BREAKER_WINDOW_MS) }));
    expect(healthOf(stale).healthy).toBe(true);
  });

  it('when only the newest twenty count and they are mostly successes, then older failures do not open it', () => {
    const outcomes = run('twilio', [...Array(10).fill(false), ...Array(11).fill(true), ...Array(9).fill(false)]);
    expect(healthOf(outcomes).healthy).toBe(true);
  });
});

describe('the order a page tries its carriers', () => {
  it('when a carrier is skipped, then the healthy ones come first in route order and the skipped one stays as the last resort', () => {
    const health = [
      { carrier: 'twilio' as const, healthy: false, skippedUntil: now },
      { carrier: 'vonage' as const, healthy: true, skippedUntil: null },
    ];
    expect(orderByHealth(['twilio', 'vonage'], health)).toEqual(['vonage', 'twilio']);
    expect(orderByHealth(['vonage', 'twilio'], health)).toEqual(['vonage', 'twilio']);
    expect(orderByHealth(['twilio'], health)).toEqual(['twilio']);
  });
});
