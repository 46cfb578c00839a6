import { currentLayers, parseLayers, type StoredLayer } from '../../../src/domain/schedule';

const layer = (restrictions: unknown) => ({
  name: 'nights',
  users: ['night@example.com'],
  rotation: { unit: 'weeks', length: 1 },
  handoff_time: '00:00',
  start: '2026-01-01',
  restrictions,
});
const parsed = (restrictions: unknown) => parseLayers([layer(restrictions)])[0].restrictions;

describe('restrictions as given', () => {
  it('when daily and weekly windows are given, then they come back as given, in order', () => {
    const windows = [
      { type: 'weekly', start_day: 7, start_time: '20:00', duration_seconds: 12 * 3600 },
      { type: 'daily', start_time: '09:00', duration_seconds: 86_400 },
      { type: 'weekly', start_day: 1, start_time: '00:00', duration_seconds: 604_800 },
    ];
    expect(parsed(windows)).toEqual(windows);
  });

  it('when a window is in the old {from, to} shape, then it becomes a daily window of the same wall-clock length; to <= from wraps past midnight', () => {
    expect(
      parsed([
        { from: '22:00', to: '06:00' },
        { from: '09:00', to: '17:30' },
        { from: '00:01', to: '00:00' },
      ]),
    ).toEqual([
      { type: 'daily', start_time: '22:00', duration_seconds: 8 * 3600 },
      { type: 'daily', start_time: '09:00', duration_seconds: 8.5 * 3600 },
      { type: 'daily', start_time: '00:01', duration_seconds: 86_400 - 60 },
    ]);
  });

  it('when old and new windows are mixed in one list, then each is read in its own shape', () => {
    expect(
      parsed([
        { from: '18:00', to: '09:00' },
        { type: 'weekly', start_day: 6, start_time: '09:00', duration_seconds: 3600 },
      ]),
    ).toEqual([
      { type: 'daily', start_time: '18:00', duration_seconds: 15 * 3600 },
      { type: 'weekly', start_day: 6, start_time: '09:00', duration_seconds: 3600 },
    ]);
  });

  it('when stored layers still hold old windows, then currentLayers shows them in the new shape and leaves the rest alone', () => {
    const stored: StoredLayer[] = [
      { ...layer([{ from: '22:00', to: '06:00' }]), rotation: { unit: 'weeks', length: 1 } } as StoredLayer,
      { name: 'plain', users: ['a@example.com'], rotation: { unit: 'days', length: 1 }, handoff_time: '09:00', start: '2026-01-01' },
    ];
    expect(currentLayers(stored)).toEqual([{ ...stored[0], restrictions: [{ type: 'daily', start_time: '22:00', duration_seconds: 8 * 3600 }] }, stored[1]]);
    expect('restrictions' in currentLayers(stored)[1]).toBe(false);
  });
});

const WEEKDAY = '1 (Monday) to 7 (Sunday)';
const daily = { type: 'daily', start_time: '09:00', duration_seconds: 3600 };
const weekly = { type: 'weekly', start_day: 1, start_time: '09:00', duration_seconds: 3600 };

describe('bad restrictions', () => {
  it.each<[string, unknown, string]>([
    [
      'not a list',
      { from: '09:00', to: '17:00' },
      'layers[0].restrictions: must be a list of {"type", "start_day"?, "start_time", "duration_seconds"} windows',
    ],
    ['eleven windows', Array.from({ length: 11 }, () => daily), 'layers[0].restrictions: must have at most 10 windows'],
    [
      'a window that is not an object',
      [daily, 'nights'],
      'layers[0].restrictions[1]: must be an object {"type", "start_day"?, "start_time", "duration_seconds"}',
    ],
    ['an unknown key', [{ ...daily, end_time: '17:00' }], 'layers[0].restrictions[0]: Unrecognized key: "end_time"'],
    ['no type', [daily, { start_time: '09:00', duration_seconds: 60 }], 'layers[0].restrictions[1].type: is required: "daily" or "weekly"'],
    ['an unknown type', [{ ...daily, type: 'monthly' }], 'layers[0].restrictions[0].type: must be "daily" or "weekly"'],
    [
      'a weekly window without start_day',
      [daily, { ...daily, type: 'weekly' }],
      `layers[0].restrictions[1].start_day: is required for a weekly window: ${WEEKDAY}`,
    ],
    [
      'a daily window with start_day',
      [{ ...daily, start_day: 3 }],
      'layers[0].restrictions[0].start_day: is only for weekly windows: a daily window opens every day',
    ],
    ['start_day 0', [{ ...weekly, start_day: 0 }], `layers[0].restrictions[0].start_day: must be an ISO weekday, ${WEEKDAY}`],
    ['start_day 8', [{ ...weekly, start_day: 8 }], `layers[0].restrictions[0].start_day: must be an ISO weekday, ${WEEKDAY}`],
    ['start_day 1.5', [{ ...weekly, start_day: 1.5 }], `layers[0].restrictions[0].start_day: must be a whole ISO weekday, ${WEEKDAY}`],
    ['start_day "1"', [{ ...weekly, start_day: '1' }], `layers[0].restrictions[0].start_day: must be an ISO weekday, ${WEEKDAY}`],
    ['no start_time', [{ type: 'daily', duration_seconds: 60 }], 'layers[0].restrictions[0].start_time: is required: a local time "HH:mm"'],
    ['start_time 9:00', [{ ...daily, start_time: '9:00' }], 'layers[0].restrictions[0].start_time: must be a local time "HH:mm" (00:00 to 23:59)'],
    ['start_time 24:00', [{ ...weekly, start_time: '24:00' }], 'layers[0].restrictions[0].start_time: must be a local time "HH:mm" (00:00 to 23:59)'],
    ['no duration', [{ type: 'daily', start_time: '09:00' }], 'layers[0].restrictions[0].duration_seconds: is required: how long the window lasts, in seconds'],
    ['a duration of 0', [{ ...daily, duration_seconds: 0 }], 'layers[0].restrictions[0].duration_seconds: must be at least 1'],
    ['a fractional duration', [{ ...weekly, duration_seconds: 1.5 }], 'layers[0].restrictions[0].duration_seconds: must be a whole number of seconds'],
    ['a duration as a string', [{ ...daily, duration_seconds: '3600' }], 'layers[0].restrictions[0].duration_seconds: must be a number of seconds'],
    [
      'a daily window longer than a day',
      [{ ...daily, duration_seconds: 86_401 }],
      'layers[0].restrictions[0].duration_seconds: must be at most 86400 (a whole day) for a daily window',
    ],
    [
      'a weekly window longer than a week',
      [{ ...weekly, duration_seconds: 604_801 }],
      'layers[0].restrictions[0].duration_seconds: must be at most 604800 (a week)',
    ],
    [
      'old and new keys in one window',
      [{ from: '09:00', to: '17:00', type: 'daily' }],
      'layers[0].restrictions[0]: give either {"type", "start_day"?, "start_time", "duration_seconds"} or the old {"from", "to"}, not both',
    ],
    ['an old window without to', [{ from: '09:00' }], 'layers[0].restrictions[0].to: is required with "from"'],
    ['an old window without from', [{ to: '09:00' }], 'layers[0].restrictions[0].from: is required with "to"'],
    ['an empty old window', [{ from: '09:00', to: '09:00' }], 'layers[0].restrictions[0]: from and to must differ'],
    ['an old window with a bad time', [{ from: '09:00', to: '17:60' }], 'layers[0].restrictions[0].to: must be a local time "HH:mm" (00:00 to 23:59)'],
  ])('when a layer has %s, then the error names the field', (_what, restrictions, message) => {
    expect(() => parseLayers([layer(restrictions)])).toThrow(message);
  });

  it('when the second layer has a bad window, then the error names that layer', () => {
    expect(() => parseLayers([layer([daily]), layer([daily, { ...weekly, start_day: 9 }])])).toThrow(
      `layers[1].restrictions[1].start_day: must be an ISO weekday, ${WEEKDAY}`,
    );
  });
});
