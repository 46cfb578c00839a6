import { isDiscordWebhookUrl, postUrl } from '../../../src/integrations/discord/chat';
import { embedColor, incidentEmbed } from '../../../src/integrations/discord/embed';
import { embedProblems } from '../../../src/integrations/discord/testing/wire-fake';

const input = (over: { title?: string; status?: string; severity?: string; people?: string[] } = {}) => ({
  type: 'incident.triggered',
  incident: { number: 7, title: over.title ?? 'Checkout down', severity: over.severity ?? 'CRITICAL', status: over.status ?? 'TRIGGERED' },
  context: { serviceName: 'Checkout', policyName: 'Primary', paging: { stepNumber: 1, people: over.people ?? ['ada@example.com'] } },
  actorName: null,
  at: '2026-11-29T05:00:00.000Z',
  links: { incident: 'https://klaxon.example/incidents/i', acknowledge: 'https://klaxon.example/hooks/chat/action/a.b', resolve: null },
});

describe('the Discord embed', () => {
  it('when every text is far over Discord’s limits, then the embed is cut to fit them (the wire fake’s checks pass)', () => {
    const message = incidentEmbed(
      input({ title: 'x'.repeat(10_000), people: Array.from({ length: 500 }, (_, i) => `person-${i}-${'y'.repeat(40)}@example.com`) }),
    );
    expect(embedProblems(message)).toEqual([]);
    expect(message.embeds[0].title).toHaveLength(256);
  });

  it('colours a new incident by severity and a later move by status', () => {
    expect(embedColor('TRIGGERED', 'CRITICAL')).not.toBe(embedColor('TRIGGERED', 'LOW'));
    expect(embedColor('RESOLVED', 'CRITICAL')).toBe(embedColor('RESOLVED', 'LOW'));
  });

  it('offers only the links the status allows, as markdown links', () => {
    const { description } = incidentEmbed(input()).embeds[0];
    expect(description).toContain('[Acknowledge](https://klaxon.example/hooks/chat/action/a.b)');
    expect(description).not.toContain('[Resolve]');
  });

  it('accepts Discord webhook URLs only, and posts to DISCORD_API_URL’s origin with the path kept and wait=true', () => {
    expect(isDiscordWebhookUrl('https://discord.com/api/webhooks/123/abc-DEF_1')).toBe(true);
    expect(isDiscordWebhookUrl('https://discordapp.com/api/webhooks/123/abc')).toBe(true);
    expect(isDiscordWebhookUrl('https://discord.com.evil.example/api/webhooks/123/abc')).toBe(false);
    expect(isDiscordWebhookUrl('https://discord.com/api/webhooks/123/abc/extra')).toBe(false);
    expect(postUrl('https://discord.com/api/webhooks/123/abc', 'http://127.0.0.1:9999')).toBe('http://127.0.0.1:9999/api/webhooks/123/abc?wait=true');
    expect(postUrl('https://discord.com/api/webhooks/123/abc', undefined)).toBe('https://discord.com/api/webhooks/123/abc?wait=true');
  });
});
