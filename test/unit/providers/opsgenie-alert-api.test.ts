import {
  ALERT_API_LIMITS,
  dedupKeyOfAlias,
  genieKeyOf,
  MESSAGE_EMPTY,
  OPSGENIE_SENDER,
  parseAlertAction,
  parseCreateAlert,
  parseIdentifierType,
} from '../../../src/integrations/opsgenie/alert-api';

const created = (body: unknown) => {
  const r = parseCreateAlert(body);
  if (!r.ok) throw new Error(r.message);
  return r.item;
};
const refused = (body: unknown) => {
  const r = parseCreateAlert(body);
  if (r.ok) throw new Error('expected a refusal');
  return { message: r.message, errors: r.errors };
};

describe('parseCreateAlert', () => {
  it('when every field is sent, then each lands on the item: message as title, alias as dedup key, the rest kept', () => {
    const item = created({
      message: 'Disk full on db-1',
      alias: 'disk-db-1',
      description: 'Only 1% left',
      priority: 'P2',
      tags: ['db', 'prod'],
      details: { host: 'db-1', free: 1, ok: false },
      entity: 'db-1',
      source: 'Alertmanager',
      user: 'prometheus',
      note: 'first firing',
      actions: ['Restart'],
      responders: [{ type: 'team', name: 'ops' }],
      visibleTo: [{ type: 'user', username: 'a@example.com' }],
    });
    expect(item).toEqual({
      action: 'trigger',
      title: 'Disk full on db-1',
      message: null,
      description: 'Only 1% left',
      severity: 'CRITICAL',
      dedupKey: 'disk-db-1',
      sender: OPSGENIE_SENDER,
      metadata: {
        alias: 'disk-db-1',
        priority: 'P2',
        tags: ['db', 'prod'],
        details: { host: 'db-1', free: '1', ok: 'false' },
        entity: 'db-1',
        source: 'Alertmanager',
        user: 'prometheus',
        note: 'first firing',
        actions: ['Restart'],
      },
    });
  });

  it.each([
    ['P1', 'CRITICAL'],
    ['P2', 'CRITICAL'],
    ['P3', 'MEDIUM'],
    ['P4', 'INFO'],
    ['P5', 'INFO'],
    ['p1', 'CRITICAL'],
  ])('when the priority is %s, then the alert is %s', (priority, severity) => {
    expect(created({ message: 'm', priority }).severity).toBe(severity);
  });

  it('when there is no priority, then it is P3 as Opsgenie defaults it; without an alias, there is no dedup key', () => {
    const item = created({ message: 'm' });
    expect(item.severity).toBe('MEDIUM');
    expect(item.metadata).toEqual({ priority: 'P3' });
    expect(item.dedupKey).toBeNull();
  });

  it('when text is longer than Opsgenie keeps, then it is cut as Opsgenie cuts it, not refused', () => {
    const item = created({
      message: 'm'.repeat(200),
      description: 'd'.repeat(20_000),
      tags: Array.from({ length: 25 }, (_, i) => `${i}`.padEnd(60, 't')),
      entity: 'e'.repeat(600),
      source: 's'.repeat(200),
      user: 'u'.repeat(200),
      note: 'n'.repeat(30_000),
      actions: Array.from({ length: 12 }, () => 'a'.repeat(60)),
      details: { big: 'v'.repeat(9000), after: 'dropped' },
    });
    expect(item.title).toHaveLength(ALERT_API_LIMITS.message);
    expect(item.description).toHaveLength(ALERT_API_LIMITS.description);
    const m = item.metadata as Record<string, any>;
    expect(m.tags).toHaveLength(20);
    expect(m.tags.every((t: string) => t.length === 50)).toBe(true);
    expect(m.entity).toHaveLength(512);
    expect(m.source).toHaveLength(100);
    expect(m.user).toHaveLength(100);
    expect(m.note).toHaveLength(25_000);
    expect(m.actions).toHaveLength(10);
    expect(m.actions[0]).toHaveLength(50);
    expect(Object.keys(m.details)).toEqual(['big']);
    expect('big'.length + m.details.big.length).toBe(ALERT_API_LIMITS.details);
  });

  it('when the alias is longer than a dedup key column, then it is cut to 512 and kept as its SHA-256, the same for a close by it', () => {
    const alias = 'a'.repeat(600);
    const item = created({ message: 'm', alias });
    expect(item.dedupKey).toMatch(/^alias-sha256:[0-9a-f]{64}$/);
    expect(item.dedupKey).toBe(dedupKeyOfAlias('a'.repeat(512)));
    const close = parseAlertAction('close', alias, 'alias', {});
    expect(close.ok && close.item.dedupKey).toBe(item.dedupKey);
    expect(dedupKeyOfAlias('short')).toBe('short');
  });

  it.each([
    ['no message', {}, MESSAGE_EMPTY, { message: MESSAGE_EMPTY }],
    ['a blank message', { message: '  ' }, MESSAGE_EMPTY, { message: MESSAGE_EMPTY }],
    ['a message of another type', { message: 42 }, MESSAGE_EMPTY, { message: MESSAGE_EMPTY }],
    [
      'an unknown priority',
      { message: 'm', priority: 'P9' },
      'Priority must be one of P1, P2, P3, P4, P5.',
      { priority: 'Priority must be one of P1, P2, P3, P4, P5.' },
    ],
    ['tags that are not a list', { message: 'm', tags: 'a,b' }, 'Tags must be a list of strings.', { tags: 'Tags must be a list of strings.' }],
    [
      'details that are not strings',
      { message: 'm', details: { a: { b: 1 } } },
      'Details must be an object of strings.',
      { details: 'Details must be an object of strings.' },
    ],
    ['an alias of another type', { message: 'm', alias: 7 }, 'Alias must be a string.', { alias: 'Alias must be a string.' }],
    ['an entity of another type', { message: 'm', entity: [] }, 'Entity must be a string.', { entity: 'Entity must be a string.' }],
    ['a body that is not an object', [], 'Request body must be a JSON object.', { body: 'Request body must be a JSON object.' }],
  ])('when the create has %s, then 422 says it, naming the field', (_name, body, message, errors) => {
    expect(refused(body)).toEqual({ message, errors });
  });

  it('when several fields are wrong, then the message says to check the errors, and each field is named', () => {
    expect(refused({ priority: 'x', tags: 3 })).toEqual({
      message: 'Request body is not processable. Please check the errors.',
      errors: { message: MESSAGE_EMPTY, priority: 'Priority must be one of P1, P2, P3, P4, P5.', tags: 'Tags must be a list of strings.' },
    });
  });
});

describe('parseAlertAction', () => {
  const ID = '8743A1B2-11DA-480E-8493-744660987BEF';

  it('when a close names an alias, then it resolves the sender’s alerts with that dedup key', () => {
    const r = parseAlertAction('close', 'disk-db-1', 'alias', { source: '', user: 'am', note: 'n' });
    expect(r.ok && r.item).toMatchObject({ action: 'resolve', dedupKey: 'disk-db-1', sender: OPSGENIE_SENDER });
  });

  it('when an acknowledge names an id, then it acknowledges by that alert id, saying who asked', () => {
    const r = parseAlertAction('acknowledge', ID, 'id', { user: 'alice' });
    expect(r.ok && r.item).toMatchObject({ action: 'acknowledge', dedupKey: null, alertId: ID.toLowerCase(), detail: 'via Opsgenie Alert API by alice' });
    const anonymous = parseAlertAction('acknowledge', ID, 'id', {});
    expect(anonymous.ok && anonymous.item.detail).toBe('via Opsgenie Alert API');
  });

  it('when an id cannot be a Klaxon alert id, then the item names no alert (it changes nothing)', () => {
    const r = parseAlertAction('close', 'not-a-uuid', 'id', {});
    expect(r.ok && r.item).toMatchObject({ action: 'resolve', dedupKey: null, alertId: null });
  });

  it('when the body has a field of another type, or is not an object, then 422 names it', () => {
    expect(parseAlertAction('close', 'a', 'alias', { user: 3 })).toEqual({
      ok: false,
      message: 'User must be a string.',
      errors: { user: 'User must be a string.' },
    });
    expect(parseAlertAction('close', 'a', 'alias', 'x')).toMatchObject({ ok: false, errors: { body: 'Request body must be a JSON object.' } });
  });
});

describe('parseIdentifierType', () => {
  it('when absent, then id (Opsgenie’s default); alias and id are taken; tiny and others are refused naming what is supported', () => {
    expect(parseIdentifierType(undefined)).toEqual({ ok: true, type: 'id' });
    expect(parseIdentifierType('alias')).toEqual({ ok: true, type: 'alias' });
    expect(parseIdentifierType('id')).toEqual({ ok: true, type: 'id' });
    expect(parseIdentifierType('tiny')).toMatchObject({ ok: false, message: expect.stringMatching(/tiny is not supported.*use id .* or alias/) });
    expect(parseIdentifierType('name')).toMatchObject({ ok: false, message: 'identifierType must be one of id, alias.' });
    expect(parseIdentifierType(['id', 'alias'])).toMatchObject({ ok: false });
  });
});

describe('genieKeyOf', () => {
  const KEY = '0123456789abcdef0123456789abcdef';

  it('when the header is GenieKey and a key (either form, any case), then that key, normalised', () => {
    expect(genieKeyOf(`GenieKey ${KEY}`)).toBe(KEY);
    expect(genieKeyOf(`geniekey ${KEY.toUpperCase()}`)).toBe(KEY);
    expect(genieKeyOf('GenieKey 01234567-89ab-cdef-0123-456789abcdef')).toBe(KEY);
  });

  it('when the header is missing, another scheme, or no key, then none', () => {
    for (const header of [undefined, '', `Bearer ${KEY}`, 'GenieKey', 'GenieKey short', `GenieKey ${KEY}${'x'.repeat(100)}`])
      expect(genieKeyOf(header)).toBeUndefined();
  });
});
