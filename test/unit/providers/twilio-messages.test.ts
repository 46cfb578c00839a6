import { parseSmsReply, smsText, voiceTwiml } from '../../../src/integrations/twilio/messages';

const subject = {
  number: 42,
  title: 'Database <primary> down & "out"',
  severity: 'CRITICAL' as const,
  serviceName: 'API',
  url: 'https://klaxon.test/incidents/x',
};

describe('Twilio page messages', () => {
  it('when an SMS is rendered, then it carries the reply code and what to reply, within one segment', () => {
    const text = smsText({ ...subject, title: 'x'.repeat(400) }, 7);
    expect(text).toContain('Reply 7A to acknowledge, 7R to resolve');
    expect(text.length).toBeLessThanOrEqual(160);
  });

  it('when TwiML is rendered, then the title is escaped and one key is gathered to our URL', () => {
    const twiml = voiceTwiml(subject, 'https://klaxon.test/hooks/twilio/voice?notification=n1&x=1');
    expect(twiml).toContain('Database &lt;primary&gt; down &amp; &quot;out&quot;');
    expect(twiml).toContain('<Gather numDigits="1"');
    expect(twiml).toContain('action="https://klaxon.test/hooks/twilio/voice?notification=n1&amp;x=1"');
    expect(twiml).toContain('Press 1 to acknowledge. Press 2 to escalate.');
  });

  it.each([
    ['4A', { code: 4, action: 'acknowledge' }],
    [' 12r ', { code: 12, action: 'resolve' }],
    ['4 a', { code: 4, action: 'acknowledge' }],
    ['ack', null],
    ['4', null],
    ['4X', null],
    ['1234A', null],
  ])('when someone replies %j, then it reads as %j', (body, expected) => {
    expect(parseSmsReply(body)).toEqual(expected);
  });
});
