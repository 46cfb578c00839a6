import { onCallAt, type Layer, type Override } from '../../../src/domain/schedule';

const [A, B, C, N] = ['alice@example.com', 'bob@example.com', 'carol@example.com', 'night@example.com'];
const daily = (handoff: string, start = '2026-01-01', users = [A, B, C]): Layer => ({
  name: 'primary',
  users,
  rotation: { unit: 'days', length: 1 },
  handoff_time: handoff,
  start,
});

/** Who is on call at an ISO instant. */
const who = (timeZone: string, layers: Layer[], iso: string, overrides: Override[] = []) => onCallAt({ timeZone, layers, overrides }, new Date(iso));
const justBefore = (iso: string) => new Date(Date.parse(iso) - 1).toISOString();

/** Expects `iso` to be a handoff from `from` to `to`: the new person at the instant, the old one a millisecond before. */
function expectHandoff(timeZone: string, layers: Layer[], iso: string, from: string, to: string) {
  expect(who(timeZone, layers, justBefore(iso))).toEqual([from]);
  expect(who(timeZone, layers, iso)).toEqual([to]);
}

describe('daily rotations across DST', () => {
  // 2026-01-01 is shift 0 (alice); from the 09:00 handoff of day D (days since Jan 1) it is users[D % 3].
  it('when New York springs forward, then the 09:00 handoff stays at 09:00 local (14:00Z before, 13:00Z after)', () => {
    const layers = [daily('09:00')];
    expectHandoff('America/New_York', layers, '2026-03-07T14:00:00.000Z', B, C); // Mar 7 = day 65
    expectHandoff('America/New_York', layers, '2026-03-08T13:00:00.000Z', C, A);
    expectHandoff('America/New_York', layers, '2026-03-09T13:00:00.000Z', A, B);
  });

  it('when New York falls back, then the 09:00 handoff stays at 09:00 local (13:00Z before, 14:00Z after)', () => {
    const layers = [daily('09:00')];
    expectHandoff('America/New_York', layers, '2026-10-31T13:00:00.000Z', C, A); // Oct 31 = day 303
    expectHandoff('America/New_York', layers, '2026-11-01T14:00:00.000Z', A, B);
    // The shift across the change is 25 hours: alice is still on at 13:30Z (08:30 EST) on Nov 1.
    expect(who('America/New_York', layers, '2026-11-01T13:30:00.000Z')).toEqual([A]);
  });

  it('when Berlin changes clocks, then handoffs stay at 09:00 CET/CEST', () => {
    const layers = [daily('09:00')];
    expectHandoff('Europe/Berlin', layers, '2026-03-28T08:00:00.000Z', B, C); // Mar 28 = day 86
    expectHandoff('Europe/Berlin', layers, '2026-03-29T07:00:00.000Z', C, A);
    expectHandoff('Europe/Berlin', layers, '2026-10-24T07:00:00.000Z', B, C); // Oct 24 = day 296
    expectHandoff('Europe/Berlin', layers, '2026-10-25T08:00:00.000Z', C, A);
  });

  it('when Lord Howe moves its clocks by half an hour, then the 09:00 handoff follows', () => {
    const layers = [daily('09:00')];
    expectHandoff('Australia/Lord_Howe', layers, '2026-10-02T22:30:00.000Z', B, C); // Oct 3 09:00 +10:30 = day 275
    expectHandoff('Australia/Lord_Howe', layers, '2026-10-03T22:00:00.000Z', C, A); // Oct 4 09:00 +11
    expectHandoff('Australia/Lord_Howe', layers, '2026-04-03T22:00:00.000Z', C, A); // Apr 4 09:00 +11 = day 93
    expectHandoff('Australia/Lord_Howe', layers, '2026-04-04T22:30:00.000Z', A, B); // Apr 5 09:00 +10:30
  });

  it('when the zone has no DST (Kolkata), then the handoff is 03:30Z every day of the year', () => {
    const layers = [daily('09:00')];
    expectHandoff('Asia/Kolkata', layers, '2026-03-08T03:30:00.000Z', C, A);
    expectHandoff('Asia/Kolkata', layers, '2026-11-01T03:30:00.000Z', A, B);
  });
});

describe('handoff times the clocks skip or repeat', () => {
  it('when a 02:30 handoff does not exist (New York spring-forward), then it happens at 03:00 EDT, and at 02:30 again the next day', () => {
    const layers = [daily('02:30')];
    expectHandoff('America/New_York', layers, '2026-03-07T07:30:00.000Z', B, C); // 02:30 EST
    expectHandoff('America/New_York', layers, '2026-03-08T07:00:00.000Z', C, A); // clocks jump 02:00 → 03:00 EDT
    expectHandoff('America/New_York', layers, '2026-03-09T06:30:00.000Z', A, B); // 02:30 EDT
  });

  it('when a 01:30 handoff happens twice (New York fall-back), then it is taken at the first 01:30 (EDT) only', () => {
    const layers = [daily('01:30')];
    expectHandoff('America/New_York', layers, '2026-11-01T05:30:00.000Z', A, B); // 01:30 EDT = day 304
    expect(who('America/New_York', layers, '2026-11-01T06:30:00.000Z')).toEqual([B]); // 01:30 EST: no second handoff
    expect(who('America/New_York', layers, '2026-11-01T06:15:00.000Z')).toEqual([B]); // 01:15 EST: the clock reads before 01:30, yet bob took over
    expectHandoff('America/New_York', layers, '2026-11-02T06:30:00.000Z', B, C);
  });

  it("when a 02:15 handoff falls in Lord Howe's half-hour gap, then it happens at 02:30 +11:00", () => {
    expectHandoff('Australia/Lord_Howe', [daily('02:15')], '2026-10-03T15:30:00.000Z', C, A);
  });

  it("when a 01:45 handoff is repeated by Lord Howe's half-hour fall-back, then the first (+11:00) counts", () => {
    const layers = [daily('01:45')];
    expectHandoff('Australia/Lord_Howe', layers, '2026-04-04T14:45:00.000Z', A, B);
    expect(who('Australia/Lord_Howe', layers, '2026-04-04T15:15:00.000Z')).toEqual([B]);
  });
});

describe('weekly and hourly rotations', () => {
  const weekly: Layer = { name: 'weekly', users: [A, B], rotation: { unit: 'weeks', length: 1 }, handoff_time: '09:00', start: '2026-10-26' };

  it('when a weekly Monday 09:00 rotation crosses fall-back, then the next handoff is Monday 09:00 EST (7 days + 1 hour later)', () => {
    expect(who('America/New_York', [weekly], justBefore('2026-10-26T13:00:00.000Z'))).toEqual([]);
    expect(who('America/New_York', [weekly], '2026-10-26T13:00:00.000Z')).toEqual([A]);
    expectHandoff('America/New_York', [weekly], '2026-11-02T14:00:00.000Z', A, B);
    expect(who('America/New_York', [weekly], '2026-11-02T13:00:00.000Z')).toEqual([A]);
  });

  it('when a weekly rotation crosses spring-forward in Berlin, then the handoff is Monday 09:00 CEST', () => {
    const layer = { ...weekly, start: '2026-03-23' };
    expectHandoff('Europe/Berlin', [layer], '2026-03-30T07:00:00.000Z', A, B);
  });

  it('when shifts are two days long, then each person holds two calendar days', () => {
    const layer: Layer = { ...daily('09:00', '2026-03-07'), rotation: { unit: 'days', length: 2 } };
    expect(who('America/New_York', [layer], '2026-03-08T13:30:00.000Z')).toEqual([A]);
    expectHandoff('America/New_York', [layer], '2026-03-09T13:00:00.000Z', A, B);
  });

  it('when 12-hour shifts hand off at 09:00 and 21:00, then they stay at 09:00 and 21:00 local across DST', () => {
    const layer: Layer = { name: 'half', users: [A, B], rotation: { unit: 'hours', length: 12 }, handoff_time: '09:00', start: '2026-03-01' };
    expectHandoff('America/New_York', [layer], '2026-03-08T02:00:00.000Z', A, B); // Mar 7 21:00 EST
    expectHandoff('America/New_York', [layer], '2026-03-08T13:00:00.000Z', B, A); // Mar 8 09:00 EDT: an 11-hour night
  });

  it('when an instant is before the layer starts, then nobody is on call', () => {
    expect(who('Europe/Berlin', [daily('09:00', '2026-06-01')], '2026-06-01T06:59:59.999Z')).toEqual([]);
    expect(who('Europe/Berlin', [daily('09:00', '2026-06-01')], '2026-06-01T07:00:00.000Z')).toEqual([A]);
  });

  it('when an instant is years after the start, then the rotation is still counted exactly', () => {
    // 2030-01-01 is 1461 days after 2026-01-01: 1461 % 3 = 0.
    expectHandoff('America/New_York', [daily('09:00')], '2030-01-01T14:00:00.000Z', C, A);
  });
});

describe('layers and overrides', () => {
  const nights: Layer = {
    name: 'nights',
    users: [N],
    rotation: { unit: 'weeks', length: 1 },
    handoff_time: '00:00',
    start: '2026-01-01',
    restrictions: [{ type: 'daily', start_time: '22:00', duration_seconds: 8 * 3600 }],
  };

  it('when an upper layer has someone on call, then it wins; outside its window the layer below shows through', () => {
    const layers = [daily('09:00'), nights];
    expect(who('Europe/Berlin', layers, '2026-07-01T12:00:00.000Z')).toEqual([B]); // 14:00 local, Jul 1 = day 181
    expectHandoff('Europe/Berlin', layers, '2026-07-01T20:00:00.000Z', B, N); // 22:00 CEST
    expectHandoff('Europe/Berlin', layers, '2026-07-02T04:00:00.000Z', N, B); // 06:00 CEST
  });

  it('when the upper layer has not started yet, then the lower layer answers', () => {
    const later = { ...daily('09:00', '2027-01-01', [N]) };
    expect(who('Europe/Berlin', [daily('09:00'), later], '2026-07-01T12:00:00.000Z')).toEqual([B]);
  });

  it('when an override begins and ends, then it applies from its first instant up to, not including, its end', () => {
    const o: Override = { userId: N, from: new Date('2026-07-01T10:00:00.000Z'), to: new Date('2026-07-01T11:00:00.000Z') };
    const layers = [daily('09:00')];
    expect(who('Europe/Berlin', layers, '2026-07-01T09:59:59.999Z', [o])).toEqual([B]);
    expect(who('Europe/Berlin', layers, '2026-07-01T10:00:00.000Z', [o])).toEqual([N]);
    expect(who('Europe/Berlin', layers, '2026-07-01T10:59:59.999Z', [o])).toEqual([N]);
    expect(who('Europe/Berlin', layers, '2026-07-01T11:00:00.000Z', [o])).toEqual([B]);
  });

  it('when overrides overlap, then everyone they name is on call, each once, above every layer', () => {
    const overrides: Override[] = [
      { userId: N, from: new Date('2026-07-01T10:00:00Z'), to: new Date('2026-07-01T12:00:00Z') },
      { userId: A, from: new Date('2026-07-01T11:00:00Z'), to: new Date('2026-07-01T13:00:00Z') },
      { userId: N, from: new Date('2026-07-01T11:30:00Z'), to: new Date('2026-07-01T12:30:00Z') },
    ];
    expect(who('Europe/Berlin', [daily('09:00'), nights], '2026-07-01T11:45:00Z', overrides)).toEqual([N, A]);
    expect(who('Europe/Berlin', [daily('09:00'), nights], '2026-07-01T12:45:00Z', overrides)).toEqual([A]);
  });
});

describe('bad input', () => {
  const layers = [daily('09:00')];
  it.each<[string, () => unknown, string]>([
    ['an unknown time zone', () => who('Europe/Atlantis', layers, '2026-07-01T00:00:00Z'), 'unknown time zone "Europe/Atlantis"'],
    ['a layer without users', () => who('UTC', [{ ...layers[0], users: [] }], '2026-07-01T00:00:00Z'), 'layers[0].users: must name at least one user'],
    [
      'a zero-length rotation',
      () => who('UTC', [{ ...layers[0], rotation: { unit: 'days', length: 0 } }], '2026-07-01T00:00:00Z'),
      'layers[0].rotation.length: must be at least 1',
    ],
    ['a bad handoff time', () => who('UTC', [{ ...layers[0], handoff_time: '25:00' }], '2026-07-01T00:00:00Z'), 'layers[0].handoff_time: must be a local time'],
    ['an invalid instant', () => who('UTC', layers, 'yesterday'), 'at must be a valid date'],
    [
      'an override ending before it starts',
      () => who('UTC', layers, '2026-07-01T00:00:00Z', [{ userId: N, from: new Date('2026-07-02'), to: new Date('2026-07-01') }]),
      'overrides[0]: from must be before to',
    ],
  ])('when given %s, then a clear error', (_name, fn, message) => {
    expect(fn).toThrow(message);
  });
});
