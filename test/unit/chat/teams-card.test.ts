import Ajv from 'ajv';
import cardSchema from '../../../src/integrations/microsoft-teams/testing/adaptive-card-1.4.schema.json';
import {
  CARD_TITLE_MAX,
  cardTime,
  incidentCard,
  offeredActions,
  pagingLine,
  statusColor,
  testCard,
  TEAMS_EVENT_TYPES,
  type IncidentCardInput,
} from '../../../src/integrations/microsoft-teams/card';
import { signAction, signIncidentAction, verifyAction, verifyIncidentAction } from '../../../src/services/response/action-tokens';
import { isPermanentRefusal } from '../../../src/integrations/microsoft-teams/chat';

const validate = new Ajv({ allErrors: true, strict: true }).compile(cardSchema);

const input = (over: Partial<IncidentCardInput> = {}): IncidentCardInput => ({
  type: 'incident.triggered',
  incident: { number: 42, title: 'Checkout is down', severity: 'CRITICAL', status: 'TRIGGERED' },
  serviceName: 'Checkout',
  policyName: 'On call',
  paging: { stepNumber: 1, people: ['ada@example.test'] },
  actorName: 'ingest',
  at: '2026-11-27T05:20:31.000Z',
  links: {
    incident: 'https://klaxon.example/incidents/i1',
    acknowledge: 'https://klaxon.example/hooks/teams/action/a',
    resolve: 'https://klaxon.example/hooks/teams/action/r',
  },
  ...over,
});

const texts = (m: ReturnType<typeof incidentCard>) => m.attachments[0].content.body.map((b) => b.text as string).filter(Boolean);
const facts = (m: ReturnType<typeof incidentCard>) =>
  Object.fromEntries(
    (m.attachments[0].content.body.find((b) => b.type === 'FactSet')!.facts as Array<{ title: string; value: string }>).map((f) => [f.title, f.value]),
  );

describe('the Microsoft Teams card', () => {
  it('when an incident opens, then the card is an Adaptive Card 1.4 in the Workflows envelope with its title, severity, service, colored status, who is paged, the time and three buttons', () => {
    const message = incidentCard(input());
    expect(message).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null }] });
    expect(message.attachments[0].content).toMatchObject({
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      type: 'AdaptiveCard',
      version: '1.4',
    });
    expect(validate(message.attachments[0].content)).toBe(true);
    expect(texts(message)).toEqual(['New incident · #42', 'Checkout is down', 'Status: TRIGGERED']);
    expect(message.attachments[0].content.body[2]).toMatchObject({ color: 'Attention' });
    expect(facts(message)).toEqual({
      Severity: 'CRITICAL',
      Service: 'Checkout',
      'Paging now': 'ada@example.test (step 1)',
      By: 'ingest',
      Time: '2026-11-27 05:20 UTC',
    });
    expect(message.attachments[0].content.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Acknowledge', url: 'https://klaxon.example/hooks/teams/action/a' },
      { type: 'Action.OpenUrl', title: 'Resolve', url: 'https://klaxon.example/hooks/teams/action/r' },
      { type: 'Action.OpenUrl', title: 'Open in Klaxon', url: 'https://klaxon.example/incidents/i1' },
    ]);
  });

  it.each(TEAMS_EVENT_TYPES)('when the event is %s, then the card fits the schema', (type) => {
    expect(validate(incidentCard(input({ type, stepNumber: 2 })).attachments[0].content)).toBe(true);
  });

  it('when an incident is acknowledged, then the status is amber, the policy is named instead of who is paged, and only Resolve and Open stay', () => {
    const message = incidentCard(
      input({
        type: 'incident.acknowledged',
        incident: { number: 42, title: 'Checkout is down', severity: 'HIGH', status: 'ACKNOWLEDGED' },
        actorName: 'Ada',
        links: { incident: 'https://k/incidents/i1', acknowledge: null, resolve: 'https://k/r' },
      }),
    );
    expect(texts(message)[0]).toBe('Acknowledged · #42');
    expect(message.attachments[0].content.body[2]).toMatchObject({ text: 'Status: ACKNOWLEDGED', color: 'Warning' });
    expect(facts(message)).toMatchObject({ 'Escalation policy': 'On call', By: 'Ada' });
    expect(facts(message)['Paging now']).toBeUndefined();
    expect(message.attachments[0].content.actions.map((a) => a.title)).toEqual(['Resolve', 'Open in Klaxon']);
  });

  it('when an incident escalates, then the headline names the step and the card names who is paged now', () => {
    const message = incidentCard(input({ type: 'incident.escalated', stepNumber: 2, paging: { stepNumber: 2, people: ['grace@example.test'] } }));
    expect(texts(message)[0]).toBe('Escalated to step 2 · #42');
    expect(facts(message)['Paging now']).toBe('grace@example.test (step 2)');
  });

  it('when an acknowledgement timed out, then the card says the incident is triggered again, not new', () => {
    expect(texts(incidentCard(input({ operation: 'ack_timeout' })))[0]).toBe('Triggered again: the acknowledgement timed out · #42');
  });

  it('when a title is longer than the card shows, then it is cut with an ellipsis', () => {
    const message = incidentCard(input({ incident: { number: 1, title: 'x'.repeat(5000), severity: 'LOW', status: 'TRIGGERED' } }));
    expect(texts(message)[1]).toHaveLength(CARD_TITLE_MAX);
    expect(texts(message)[1].endsWith('…')).toBe(true);
  });

  it('when a service has no policy and nobody was paged, then neither line is shown, and a missing service says so', () => {
    const message = incidentCard(input({ serviceName: null, policyName: null, paging: null, actorName: null }));
    expect(facts(message)).toEqual({ Severity: 'CRITICAL', Service: '(no service)', Time: '2026-11-27 05:20 UTC' });
  });

  it('pagingLine names at most five people and counts the rest', () => {
    const people = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(pagingLine({ paging: { stepNumber: 3, people }, policyName: 'P' })).toBe('a, b, c, d, e and 2 more (step 3)');
    expect(pagingLine({ paging: { stepNumber: 1, people: [] }, policyName: 'P' })).toBe('escalation policy "P"');
  });

  it('statuses are colored, action buttons follow the status, and times read in UTC', () => {
    expect(['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING', 'RESOLVED', 'CLOSED', 'X'].map(statusColor)).toEqual([
      'Attention',
      'Warning',
      'Warning',
      'Good',
      'Good',
      'Default',
    ]);
    expect(offeredActions('TRIGGERED')).toEqual({ acknowledge: true, resolve: true });
    expect(offeredActions('INVESTIGATING')).toEqual({ acknowledge: false, resolve: true });
    expect(offeredActions('RESOLVED')).toEqual({ acknowledge: false, resolve: false });
    expect(cardTime('not a time')).toBe('not a time');
  });

  it('the test card fits the schema and opens Klaxon', () => {
    const message = testCard({ serviceName: 'Checkout', appUrl: 'https://klaxon.example', at: '2026-11-27T05:20:31.000Z' });
    expect(validate(message.attachments[0].content)).toBe(true);
    expect(message.attachments[0].content.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open in Klaxon', url: 'https://klaxon.example' }]);
  });

  it('the schema refuses what Teams would not render: another version, an unknown element, an OpenUrl without url', () => {
    const content = incidentCard(input()).attachments[0].content;
    expect(validate({ ...content, version: '1.5' })).toBe(false);
    expect(validate({ ...content, body: [...content.body, { type: 'Image', url: 'https://x' }] })).toBe(false);
    expect(validate({ ...content, actions: [{ type: 'Action.OpenUrl', title: 'Open' }] })).toBe(false);
    expect(validate({ ...content, body: [{ type: 'TextBlock', text: 'x', colour: 'Good' }] })).toBe(false);
  });
});

describe('incident-scoped action tokens', () => {
  const secret = 'a-secret-that-is-at-least-32-characters';
  const now = 1_800_000_000;

  it('when signed, then verified with the claim; refused once expired, altered, under another secret', () => {
    const token = signIncidentAction(secret, { incidentId: 'i1', action: 'resolve', expiresAt: now + 60 });
    expect(verifyIncidentAction(secret, token, now)).toEqual({ incidentId: 'i1', action: 'resolve', expiresAt: now + 60 });
    expect(verifyIncidentAction(secret, token, now + 61)).toBeNull();
    expect(verifyIncidentAction(`${secret}x`, token, now)).toBeNull();
    const [body, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ k: 'i', i: 'i2', a: 'resolve', e: now + 60 })).toString('base64url');
    expect(verifyIncidentAction(secret, `${forged}.${sig}`, now)).toBeNull();
    expect(verifyIncidentAction(secret, `${body}.${sig}.x`, now)).toBeNull();
  });

  it('when a page token and an incident token meet the other kind’s check, then neither passes', () => {
    const pageToken = signAction(secret, { notificationId: 'n1', action: 'acknowledge', expiresAt: now + 60 });
    const incidentToken = signIncidentAction(secret, { incidentId: 'i1', action: 'acknowledge', expiresAt: now + 60 });
    expect(verifyIncidentAction(secret, pageToken, now)).toBeNull();
    expect(verifyAction(secret, incidentToken, now)).toBeNull();
  });
});

describe('which Teams answers give a card up at once', () => {
  it('a 4xx but 408 and 429 is given up; no answer, 5xx, 408 and 429 are retried', () => {
    expect([400, 401, 403, 404, 410, 413].map(isPermanentRefusal)).toEqual([true, true, true, true, true, true]);
    expect([null, 302, 408, 429, 500, 502, 503].map(isPermanentRefusal)).toEqual([false, false, false, false, false, false, false]);
  });
});
