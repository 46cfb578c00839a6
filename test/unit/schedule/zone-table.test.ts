import fc from 'fast-check';
import { zoneOf } from '../../../src/domain/schedule/local-time';
import { tabulated } from '../../../src/domain/schedule/zone-table';

const from = Date.parse('2026-01-01T00:00:00Z');
const to = Date.parse('2027-01-01T00:00:00Z');

describe('tabulated zone offsets', () => {
  it.each([
    ['America/New_York', '2026-03-08T07:00:00Z', '2026-11-01T06:00:00Z'],
    ['Europe/Berlin', '2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z'],
    ['Australia/Lord_Howe', '2026-04-04T15:00:00Z', '2026-10-03T15:30:00Z'],
  ])('when %s changes its clocks, then the table changes offset at the same millisecond as the zone', (name, ...changes) => {
    const zone = zoneOf(name);
    const table = tabulated(zone, from, to);
    for (const change of changes.map(Date.parse)) {
      expect([change - 1, change].map((t) => table.offset(t))).toEqual([change - 1, change].map((t) => zone.offset(t)));
      expect(table.offset(change - 1)).not.toBe(table.offset(change));
    }
  });

  it('when asked anywhere, inside the range or out of it, then the table answers as the zone does', () => {
    const zones = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Santiago', 'Africa/Casablanca'];
    const tables = new Map(zones.map((z) => [z, { zone: zoneOf(z), table: tabulated(zoneOf(z), from, to) }]));
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: from - 30 * 86_400_000, max: to + 30 * 86_400_000 }), (name, t) => {
        const { zone, table } = tables.get(name)!;
        expect(table.offset(t)).toBe(zone.offset(t));
      }),
      { numRuns: 2000 },
    );
  });
});
