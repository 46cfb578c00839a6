import { holdAt, maintenanceState, notPagedMessage, windowSpanProblem } from '../../src/domain/maintenance';

const at = (iso: string) => new Date(`2026-12-01T${iso}Z`);
const window = (id: string, from: string, to: string) => ({ id, reason: `reason ${id}`, startsAt: at(from), endsAt: at(to) });

describe('maintenance windows (pure rules)', () => {
  it('when an instant is before, inside or at the end of a window, then it is scheduled, active, ended (the end is exclusive)', () => {
    const w = window('a', '10:00:00', '11:00:00');
    expect(maintenanceState(w, at('09:59:59'))).toBe('scheduled');
    expect(maintenanceState(w, at('10:00:00'))).toBe('active');
    expect(maintenanceState(w, at('10:59:59'))).toBe('active');
    expect(maintenanceState(w, at('11:00:00'))).toBe('ended');
  });

  it('when several windows cover an instant, then the hold lasts until the latest end; none covering: no hold', () => {
    const windows = [window('a', '10:00:00', '11:00:00'), window('b', '10:30:00', '12:00:00'), window('c', '13:00:00', '14:00:00')];
    expect(holdAt(windows, at('10:15:00'))).toEqual({ windowId: 'a', reason: 'reason a', until: at('11:00:00') });
    expect(holdAt(windows, at('10:45:00'))).toEqual({ windowId: 'b', reason: 'reason b', until: at('12:00:00') });
    expect(holdAt(windows, at('12:30:00'))).toBeNull();
  });

  it('when a span is backwards, past, over a week or too far ahead, then the problem names its field', () => {
    const now = at('10:00:00');
    expect(windowSpanProblem({ startsAt: at('11:00:00'), endsAt: at('10:30:00') }, now)).toEqual({ field: 'ends_at', message: 'must be after starts_at' });
    expect(windowSpanProblem({ startsAt: at('08:00:00'), endsAt: at('09:00:00') }, now)).toEqual({ field: 'ends_at', message: 'must be in the future' });
    expect(windowSpanProblem({ startsAt: now, endsAt: new Date(now.getTime() + 8 * 86_400_000) }, now)?.field).toBe('ends_at');
    expect(windowSpanProblem({ startsAt: new Date(now.getTime() + 91 * 86_400_000), endsAt: new Date(now.getTime() + 92 * 86_400_000) }, now)?.field).toBe(
      'starts_at',
    );
    expect(windowSpanProblem({ startsAt: at('09:00:00'), endsAt: at('10:00:01') }, now)).toBeNull();
  });

  it('when a spell is held, then the timeline line names the window and its end', () => {
    expect(notPagedMessage({ reason: 'DB upgrade', until: at('11:00:00') })).toBe(
      'Not paged: maintenance window “DB upgrade” until 2026-12-01T11:00:00.000Z; pages then if still triggered.',
    );
  });
});
