import { describe, expect, it } from 'vitest';
import { seatsLeft, usageLines } from './plan';
import type { PlanView } from './types';

const free: PlanView = {
  plan: 'FREE',
  limits: { users: 5, sources: 3, alerts_per_month: 50, sms_per_user_per_month: 0, voice_per_user_per_month: 0, history_days: 7, api_access: false },
  usage: { users: 4, pending_invitations: 1, sources: 2, alerts_this_month: 50, alerts_limit: 50, resets_at: '2026-12-01T00:00:00.000Z' },
};

describe('the plan card', () => {
  it('when members and pending invitations fill the user limit, then no seat is left and the seats line says so', () => {
    expect(seatsLeft(free)).toBe(0);
    expect(usageLines(free)[0]).toEqual({ label: 'Seats', value: '5 of 5 (4 members + 1 pending invitation)', full: true });
  });

  it('when the monthly alert quota is used up, then the line is full and says the UTC day it counts again', () => {
    expect(usageLines(free)[2]).toEqual({ label: 'Alerts this month', value: '50 of 50, counting again from 2026-12-01', full: true });
  });

  it('when the plan has no limits, then nothing is full and no seat count is made up', () => {
    const business: PlanView = {
      plan: 'BUSINESS',
      limits: { ...free.limits, users: null, sources: null, alerts_per_month: null, api_access: true, history_days: 365 },
      usage: { ...free.usage, pending_invitations: 0, alerts_limit: null, alerts_this_month: 900 },
    };
    expect(seatsLeft(business)).toBeNull();
    const lines = usageLines(business);
    expect(lines.some((l) => l.full)).toBe(false);
    expect(lines.map((l) => l.value)).toEqual(['4 (unlimited)', '2 (unlimited)', '900 (unlimited)', 'included', '365 days']);
  });
});
