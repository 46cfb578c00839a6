import { describe, expect, it } from 'vitest';
import { describeRestriction, draftOfRestriction, newRestriction, restrictionBody } from './restrictionForm';

describe('restriction window form ↔ body', () => {
  it('when a weekly window is read into the form, then its duration is split into hours and minutes, and sent back unchanged', () => {
    const stored = { type: 'weekly' as const, start_day: 5, start_time: '18:00', duration_seconds: 64 * 3600 + 30 * 60 };
    expect(draftOfRestriction(stored)).toEqual({ type: 'weekly', startDay: 5, startTime: '18:00', hours: 64, minutes: 30, seconds: 0 });
    expect(restrictionBody(draftOfRestriction(stored))).toEqual(stored);
  });

  it('when a weekly window is switched to daily, then no start_day is sent; switched back, the weekday is kept', () => {
    const weekly = { ...newRestriction(), type: 'weekly' as const, startDay: 3 };
    expect(restrictionBody({ ...weekly, type: 'daily' })).toEqual({ type: 'daily', start_time: '09:00', duration_seconds: 8 * 3600 });
    expect(restrictionBody(weekly)).toEqual({ type: 'weekly', start_day: 3, start_time: '09:00', duration_seconds: 8 * 3600 });
  });

  it('when hours and minutes are typed as text or left empty, then they count as typed, an empty one as 0', () => {
    expect(restrictionBody({ ...newRestriction(), hours: '1', minutes: '' }).duration_seconds).toBe(3600);
    expect(restrictionBody({ ...newRestriction(), hours: '', minutes: '' }).duration_seconds).toBe(0);
  });

  it.each([
    [{ type: 'weekly' as const, start_day: 1, start_time: '09:00', duration_seconds: 8 * 3600 }, 'Mon 09:00 for 8h'],
    [{ type: 'weekly' as const, start_day: 7, start_time: '20:00', duration_seconds: 12 * 3600 + 30 * 60 }, 'Sun 20:00 for 12h 30m'],
    [{ type: 'daily' as const, start_time: '22:00', duration_seconds: 45 * 60 }, 'Every day 22:00 for 45m'],
    [{ type: 'daily' as const, start_time: '00:00', duration_seconds: 86_400 }, 'Every day 00:00 for 24h'],
  ])('when a window is described, then it reads like %j → %s', (r, text) => {
    expect(describeRestriction(r)).toBe(text);
  });
});
