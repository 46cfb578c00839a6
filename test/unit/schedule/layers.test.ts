import { parseLayers } from '../../../src/domain/schedule';

const valid = {
  name: 'primary',
  users: ['alice@example.com', '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed'],
  rotation: { unit: 'days', length: 1 },
  handoff_time: '09:00',
  start: '2026-11-01',
};

describe('parseLayers', () => {
  it('when a layer is valid, then it comes back as given', () => {
    expect(parseLayers([valid])).toEqual([valid]);
  });

  it('when name and handoff_time are left out, then "layer N" and midnight', () => {
    const { name: _n, handoff_time: _h, ...bare } = valid;
    expect(parseLayers([valid, bare])[1]).toMatchObject({ name: 'layer 2', handoff_time: '00:00', start: '2026-11-01' });
  });

  it('when start is a local date-time, then it is split into start and handoff_time', () => {
    const { handoff_time: _h, ...rest } = valid;
    expect(parseLayers([{ ...rest, start: '2026-11-01T21:30' }])[0]).toMatchObject({ start: '2026-11-01', handoff_time: '21:30' });
  });

  it('when restrictions are given, then they are kept (restrictions.test.ts has the rest)', () => {
    const restrictions = [{ type: 'daily', start_time: '22:00', duration_seconds: 28_800 }];
    expect(parseLayers([{ ...valid, restrictions }])[0].restrictions).toEqual(restrictions);
  });

  it.each([
    ['not a list', { ...valid }, 'layers: must be a JSON array of layers'],
    ['no layers', [], 'layers: must have at least one layer'],
    ['empty users', [{ ...valid, users: [] }], 'layers[0].users: must name at least one user'],
    ['a user that is neither email nor id', [{ ...valid, users: ['alice'] }], 'layers[0].users[0]: must be an email or a user id (UUID)'],
    ['length 0', [{ ...valid, rotation: { unit: 'days', length: 0 } }], 'layers[0].rotation.length: must be at least 1'],
    ['a fractional length', [{ ...valid, rotation: { unit: 'days', length: 1.5 } }], 'layers[0].rotation.length: must be a whole number'],
    ['an unknown unit', [{ ...valid, rotation: { unit: 'months', length: 1 } }], 'layers[0].rotation.unit: must be one of hours, days, weeks'],
    ['handoff 9:00', [{ ...valid, handoff_time: '9:00' }], 'layers[0].handoff_time: must be a local time "HH:mm" (00:00 to 23:59)'],
    ['handoff 24:00', [{ ...valid, handoff_time: '24:00' }], 'layers[0].handoff_time: must be a local time "HH:mm"'],
    ['handoff 09:60', [{ ...valid, handoff_time: '09:60' }], 'layers[0].handoff_time: must be a local time "HH:mm"'],
    ['start on 30 February', [{ ...valid, start: '2026-02-30' }], 'layers[0].start: is not a real calendar date'],
    [
      'start with an offset',
      [{ ...valid, start: '2026-11-01T09:00Z' }],
      'layers[0].start: must be a local date "YYYY-MM-DD" or date-time "YYYY-MM-DDTHH:mm" (no offset: it is in the schedule\'s time zone)',
    ],
    [
      'start time and handoff_time disagreeing',
      [{ ...valid, start: '2026-11-01T10:00' }],
      'layers[0].handoff_time: handoff_time disagrees with the time in start',
    ],
    ['a misspelt key', [{ ...valid, handoff: '09:00' }], 'layers[0]: Unrecognized key: "handoff"'],
    ['an empty restriction window', [{ ...valid, restrictions: [{ from: '09:00', to: '09:00' }] }], 'layers[0].restrictions[0]: from and to must differ'],
    ['a second layer wrong', [valid, { ...valid, users: [] }], 'layers[1].users: must name at least one user'],
  ])('when given %s, then a clear error naming the field', (_name, input, message) => {
    expect(() => parseLayers(input)).toThrow(message);
  });
});
