import { normaliseSeverity, parseFormASeverity, toIncidentSeverity, zabbixSeverity } from '../../../src/domain/ingest/severity';

describe('native severity table', () => {
  // The README's table, written out word by word.
  const TABLE: Array<[string, string]> = [
    ...['critical', 'error', 'fatal', 'emergency', 'disaster', 'high', 'Sev0', 'Sev1', 'P1', 'P2', 'Triggered', 'ALARM', 'DOWN'].map((w): [string, string] => [
      w,
      'critical',
    ]),
    ...['warning', 'warn', 'average', 'medium', 'Sev2', 'No Data', 'INSUFFICIENT_DATA'].map((w): [string, string] => [w, 'warning']),
    ...['info', 'low', 'debug', 'Sev3', 'Sev4', 'Recovered', 'OK', 'UP', 'Information', 'Not classified'].map((w): [string, string] => [w, 'info']),
  ];

  it.each(TABLE)('when the sender says %s, then the event severity is %s', (word, expected) => {
    expect(normaliseSeverity(word)).toBe(expected);
  });

  it('when the word is in another case or padded, then it maps the same', () => {
    expect(normaliseSeverity(' CRITICAL ')).toBe('critical');
    expect(normaliseSeverity('sEv3')).toBe('info');
  });

  it('when the severity is missing, unknown or not a string, then it is warning', () => {
    for (const value of [undefined, null, '', 'bogus', 'P3', 42, 'constructor', 'toString']) expect(normaliseSeverity(value)).toBe('warning');
  });
});

describe('zabbix numeric severity', () => {
  it.each([
    ['0', 'info'],
    ['1', 'info'],
    ['2', 'warning'],
    ['3', 'warning'],
    ['4', 'critical'],
    ['5', 'critical'],
  ])('when event_nseverity is %s, then the severity is %s', (level, expected) => {
    expect(zabbixSeverity(level)).toBe(expected);
    expect(zabbixSeverity(Number(level))).toBe(expected);
  });

  it('when the level is out of range or not a number, then it is warning', () => {
    for (const value of ['6', '-1', '', '4.5', 'High', null, undefined]) expect(zabbixSeverity(value)).toBe('warning');
  });
});

describe('incident scale', () => {
  it('when an event opens an incident, then critical → CRITICAL, warning → MEDIUM, info → INFO', () => {
    expect(toIncidentSeverity('critical')).toBe('CRITICAL');
    expect(toIncidentSeverity('warning')).toBe('MEDIUM');
    expect(toIncidentSeverity('info')).toBe('INFO');
  });
});

describe('Form A severity', () => {
  it.each([
    ['critical', 'CRITICAL'],
    ['high', 'HIGH'],
    ['error', 'HIGH'],
    ['medium', 'MEDIUM'],
    ['warning', 'MEDIUM'],
    ['low', 'LOW'],
    ['info', 'INFO'],
    ['Critical', 'CRITICAL'],
    ['ERROR', 'HIGH'],
    ['Warning', 'MEDIUM'],
    ['LoW', 'LOW'],
  ])('when Form A severity is %s, then the incident severity is %s', (value, expected) => {
    expect(parseFormASeverity(value)).toBe(expected);
  });

  it('when Form A severity is not one of the accepted words, then it is undefined (a 400)', () => {
    for (const value of ['', 'fatal', 'sev1', 'warn', 'p1', 'constructor', 'hasOwnProperty']) expect(parseFormASeverity(value)).toBeUndefined();
  });
});
