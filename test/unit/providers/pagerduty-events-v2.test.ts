import { EVENTS_V2_LIMITS, newDedupKey, PAGERDUTY_ACK_DETAIL, PAGERDUTY_SENDER, parseEventsV2 } from '../../../src/integrations/pagerduty/events-v2';

const KEY = '0123456789abcdef0123456789abcdef';
const trigger = (over: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) => ({
  routing_key: KEY,
  event_action: 'trigger',
  payload: { summary: 'CPU high on web-1', source: 'web-1', severity: 'critical', ...payload },
  ...over,
});
const errorsOf = (body: unknown) => {
  const r = parseEventsV2(body);
  if (r.ok) throw new Error('expected a refusal');
  return r.errors;
};
const itemOf = (body: unknown, key = 'made-up') => {
  const r = parseEventsV2(body);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return { event: r.event, item: r.event.item(r.event.dedupKey ?? key) };
};

describe('parseEventsV2: a trigger', () => {
  it('when every field is sent, then each lands on the item: summary as title, severity on our scale, the rest in metadata', () => {
    const { event, item } = itemOf({
      routing_key: KEY.toUpperCase(),
      event_action: 'trigger',
      dedup_key: 'disk/db-1',
      client: 'Prometheus',
      client_url: 'https://prom.example.com',
      links: [{ href: 'https://runbook.example.com', text: 'Runbook' }],
      images: [{ src: 'https://img.example.com/g.png', href: 'https://grafana.example.com', alt: 'graph' }],
      payload: {
        summary: 'Disk full on db-1',
        source: 'db-1.example.com',
        severity: 'error',
        timestamp: '2015-07-17T08:42:58.315+0000',
        component: 'postgres',
        group: 'prod-datapipe',
        class: 'disk',
        custom_details: { 'free space': '1%', inodes: 42 },
      },
    });
    expect(event).toMatchObject({ action: 'trigger', dedupKey: 'disk/db-1' });
    expect(item).toEqual({
      action: 'trigger',
      title: 'Disk full on db-1',
      message: null,
      description: null,
      severity: 'HIGH',
      dedupKey: 'disk/db-1',
      sender: PAGERDUTY_SENDER,
      metadata: {
        source: 'db-1.example.com',
        component: 'postgres',
        group: 'prod-datapipe',
        class: 'disk',
        timestamp: '2015-07-17T08:42:58.315+0000',
        custom_details: { 'free space': '1%', inodes: 42 },
        client: 'Prometheus',
        client_url: 'https://prom.example.com',
        links: [{ href: 'https://runbook.example.com', text: 'Runbook' }],
        images: [{ src: 'https://img.example.com/g.png', href: 'https://grafana.example.com', alt: 'graph' }],
      },
    });
  });

  it.each([
    ['critical', 'CRITICAL'],
    ['error', 'HIGH'],
    ['warning', 'MEDIUM'],
    ['info', 'INFO'],
    ['Critical', 'CRITICAL'],
  ])('when the severity is %s, then the alert is %s', (severity, expected) => {
    expect(itemOf(trigger({}, { severity })).item.severity).toBe(expected);
  });

  it('when the routing_key has the right length, then the caller looks it up (a key naming no source is its refusal)', () => {
    expect(parseEventsV2(trigger({ routing_key: 'z'.repeat(32) })).ok).toBe(true);
    expect(parseEventsV2(trigger({ routing_key: '01234567-89ab-cdef-0123-456789abcdef' })).ok).toBe(true);
  });

  it('when there is no dedup_key (or an empty one), then the event says so and the caller’s key is used', () => {
    for (const body of [trigger(), trigger({ dedup_key: '' }), trigger({ dedup_key: null })]) {
      const { event, item } = itemOf(body, 'generated');
      expect(event.dedupKey).toBeNull();
      expect(item.dedupKey).toBe('generated');
    }
  });

  it('when the summary is longer than a title, then the title is its first line cut to 255 and the whole summary is the message', () => {
    const summary = `${'x'.repeat(300)}\nsecond line`;
    const { item } = itemOf(trigger({}, { summary }));
    expect(item.title).toBe('x'.repeat(255));
    expect(item.message).toBe(summary);
  });

  it('when optional fields are null or empty (Alertmanager sends empty strings), then they are left out', () => {
    const { item } = itemOf(trigger({ client: '', client_url: null, links: [], images: null }, { component: '', group: null }));
    expect(item.metadata).toEqual({ source: 'web-1' });
  });

  it('when text holds a NUL, then it is stored with U+FFFD in its place, the dedup key too (the same text gives the same key)', () => {
    const { item } = itemOf(trigger({ dedup_key: 'a\u0000b' }, { summary: 'bad\u0000summary' }));
    expect(item.title).toBe('bad\uFFFDsummary');
    expect(item.dedupKey).toBe('a\uFFFDb');
  });
});

describe('parseEventsV2: acknowledge and resolve', () => {
  it('when a resolve or an acknowledge names a dedup_key, then the item asks that, without a payload; an acknowledge says how it came', () => {
    const resolve = itemOf({ routing_key: KEY, event_action: 'resolve', dedup_key: 'k1' }).item;
    expect(resolve).toMatchObject({ action: 'resolve', dedupKey: 'k1', sender: PAGERDUTY_SENDER });
    expect(resolve.detail).toBeUndefined();
    const ack = itemOf({ routing_key: KEY, event_action: 'acknowledge', dedup_key: 'k1', payload: { summary: 12 } }).item;
    expect(ack).toMatchObject({ action: 'acknowledge', dedupKey: 'k1', detail: PAGERDUTY_ACK_DETAIL });
  });
});

describe('parseEventsV2: every refusal names its field as PagerDuty does', () => {
  it.each([
    ['no routing_key', trigger({ routing_key: undefined }), ["'routing_key' is missing or blank"]],
    ['a blank routing_key', trigger({ routing_key: '  ' }), ["'routing_key' is missing or blank"]],
    ['a short routing_key', trigger({ routing_key: 'abc' }), ["Length of 'routing_key' is incorrect (should be 32 characters)"]],
    ['a long routing_key', trigger({ routing_key: `${KEY}0` }), ["Length of 'routing_key' is incorrect (should be 32 characters)"]],
    ['a routing_key of another type', trigger({ routing_key: 42 }), ["'routing_key' is invalid (must be a string)"]],
    ['no event_action', trigger({ event_action: undefined }), ["'event_action' is missing or blank"]],
    [
      'an unknown event_action',
      trigger({ event_action: 'page' }),
      ["'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')"],
    ],
    ['no payload', trigger({ payload: undefined }), ["'payload' is missing or blank"]],
    ['a payload that is not an object', trigger({ payload: 'x' }), ["'payload' is invalid (must be an object)"]],
    ['no summary', trigger({}, { summary: undefined }), ["'payload.summary' is missing or blank"]],
    ['a blank summary', trigger({}, { summary: ' ' }), ["'payload.summary' is missing or blank"]],
    ['a long summary', trigger({}, { summary: 's'.repeat(1025) }), ["'payload.summary' is too long (maximum is 1024 characters)"]],
    ['no source', trigger({}, { source: undefined }), ["'payload.source' is missing or blank"]],
    ['no severity', trigger({}, { severity: undefined }), ["'payload.severity' is missing or blank"]],
    [
      'an unknown severity',
      trigger({}, { severity: 'fatal' }),
      ["'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')"],
    ],
    ['a long dedup_key', trigger({ dedup_key: 'k'.repeat(256) }), ["'dedup_key' is too long (maximum is 255 characters)"]],
    ['a numeric component', trigger({}, { component: 3 }), ["'payload.component' is invalid (must be a string)"]],
    ['a long timestamp', trigger({}, { timestamp: 't'.repeat(65) }), ["'payload.timestamp' is too long (maximum is 64 characters)"]],
    ['a long class', trigger({}, { class: 'c'.repeat(1025) }), ["'payload.class' is too long (maximum is 1024 characters)"]],
    ['a long group', trigger({}, { group: 'g'.repeat(1025) }), ["'payload.group' is too long (maximum is 1024 characters)"]],
    ['a long client', trigger({ client: 'c'.repeat(1025) }), ["'client' is too long (maximum is 1024 characters)"]],
    ['a long client_url', trigger({ client_url: 'u'.repeat(2049) }), ["'client_url' is too long (maximum is 2048 characters)"]],
    [
      'huge custom_details',
      trigger({}, { custom_details: { x: 'd'.repeat(EVENTS_V2_LIMITS.customDetailsBytes) } }),
      ["'payload.custom_details' is too large (maximum is 64 KiB of JSON)"],
    ],
    ['links that are not a list', trigger({ links: {} }), ["'links' is invalid (must be an array)"]],
    ['a link without href', trigger({ links: [{ text: 'x' }] }), ["'links[0].href' is missing or blank"]],
    ['a link that is not an object', trigger({ links: ['x'] }), ["'links[0]' is invalid (must be an object)"]],
    ['too many links', trigger({ links: Array.from({ length: 51 }, () => ({ href: 'h' })) }), ["'links' has too many entries (maximum is 50)"]],
    ['an image without src', trigger({ images: [{ alt: 'x' }] }), ["'images[0].src' is missing or blank"]],
    ['an image with a numeric alt', trigger({ images: [{ src: 's', alt: 1 }] }), ["'images[0].alt' is invalid (must be a string)"]],
    ['a resolve without dedup_key', { routing_key: KEY, event_action: 'resolve' }, ["'dedup_key' is missing or blank"]],
    ['an acknowledge with a blank dedup_key', { routing_key: KEY, event_action: 'acknowledge', dedup_key: ' ' }, ["'dedup_key' is missing or blank"]],
  ])('when the event has %s, then it is refused with exactly those errors', (_name, body, errors) => {
    expect(errorsOf(body)).toEqual(errors);
  });

  it('when several fields are wrong, then every one of them is reported', () => {
    expect(errorsOf({ event_action: 'trigger', payload: { severity: 'bad' } })).toEqual([
      "'routing_key' is missing or blank",
      "'payload.summary' is missing or blank",
      "'payload.source' is missing or blank",
      "'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')",
    ]);
  });

  it('when a 512 KiB body holds 40,000 bad links, then it is one error, found at once', () => {
    const started = performance.now();
    expect(errorsOf(trigger({ links: Array.from({ length: 40_000 }, () => ({})) }))).toEqual(["'links' has too many entries (maximum is 50)"]);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('when the body is not an object, then that is the one error', () => {
    for (const body of [null, [], 'x', 3]) expect(errorsOf(body)).toEqual(['the event must be a JSON object']);
  });
});

describe('newDedupKey', () => {
  it('when a trigger came without a key, then a new one is 32 hex, random without an Idempotency-Key and the same for each replay with one', () => {
    expect(newDedupKey('s1')).toMatch(/^[0-9a-f]{32}$/);
    expect(newDedupKey('s1')).not.toBe(newDedupKey('s1'));
    expect(newDedupKey('s1', 'idem')).toBe(newDedupKey('s1', 'idem'));
    expect(newDedupKey('s1', 'idem')).not.toBe(newDedupKey('s2', 'idem'));
    expect(newDedupKey('s1', 'idem')).toMatch(/^[0-9a-f]{32}$/);
  });
});
