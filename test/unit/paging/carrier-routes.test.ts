import { CarrierRoutes, carriersFor, type Carrier } from '../../../src/domain/paging/carrier-routes';

const both = new Set<Carrier>(['twilio', 'vonage']);

describe('carrier routes', () => {
  it('when no route matches, then every configured carrier is tried, Twilio first', () => {
    expect(carriersFor('+14155550100', {}, both)).toEqual(['twilio', 'vonage']);
    expect(carriersFor('+14155550100', {}, new Set<Carrier>(['vonage']))).toEqual(['vonage']);
    expect(carriersFor('+14155550100', {}, new Set<Carrier>())).toEqual([]);
  });

  it('when prefixes overlap, then the longest one that matches decides, and a carrier that is not configured is left out', () => {
    const routes = CarrierRoutes.parse({ '+4': ['twilio'], '+49': ['vonage', 'twilio'], '+4930': ['twilio', 'vonage'] });
    expect(carriersFor('+491701234567', routes, both)).toEqual(['vonage', 'twilio']);
    expect(carriersFor('+49301234567', routes, both)).toEqual(['twilio', 'vonage']);
    expect(carriersFor('+441234567890', routes, both)).toEqual(['twilio']);
    expect(carriersFor('+491701234567', routes, new Set<Carrier>(['twilio']))).toEqual(['twilio']);
  });

  it('when the matching route names only carriers that are not configured, then the configured ones page in the default order: the page still goes out', () => {
    expect(carriersFor('+441234567890', { '+44': ['twilio'] }, new Set<Carrier>(['vonage']))).toEqual(['vonage']);
  });

  it('when CARRIER_ROUTES is malformed, then the error names the prefix and what is wrong', () => {
    const problem = (value: unknown) => {
      const result = CarrierRoutes.safeParse(value);
      return result.success ? 'accepted' : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    };
    expect(problem({ '49': ['twilio'] })).toBe('49: must be an E.164 prefix: + and 1 to 15 digits');
    expect(problem({ '+49': [] })).toBe('+49: must name at least one carrier');
    expect(problem({ '+49': ['twilio', 'twilio'] })).toBe('+49: must not name a carrier twice');
    expect(problem({ '+49': ['bandwidth'] })).toMatch(/^\+49\.0: /);
    expect(problem(Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`+${i + 1}`, ['twilio']])))).toMatch(/at most 500 prefixes/);
  });
});
