import { createHash, createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHANNELS } from '../../../src/domain/channels';
import type { PageToRender } from '../../../src/integrations/channel';
import { channelProviders, describeChannels } from '../../../src/integrations/wiring';
import { answerNcco, callNcco, signedByVonage, vonageSettings } from '../../../src/integrations/vonage';
import { startupError, startWith } from '../../support/startup';

const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const APPLICATION_ID = randomUUID();
const VONAGE = {
  VONAGE_API_KEY: 'a1b2c3d4',
  VONAGE_API_SECRET: 'vonage-api-secret-do-not-leak',
  VONAGE_APPLICATION_ID: APPLICATION_ID,
  VONAGE_PRIVATE_KEY: PRIVATE_KEY,
  VONAGE_FROM: '+15550001111',
};

describe('the Vonage call script (NCCO)', () => {
  const page: PageToRender = {
    notificationId: randomUUID(),
    to: '+15557654321',
    incident: {
      id: randomUUID(),
      number: 42,
      title: 'Checkout is down',
      severity: 'CRITICAL',
      status: 'TRIGGERED',
      serviceName: 'shop',
      organizationId: randomUUID(),
    },
    subject: { number: 42, title: 'Checkout is down', severity: 'CRITICAL', serviceName: 'shop', url: 'https://klaxon.example.test/incidents/x' },
    replyCode: null,
    appUrl: 'https://klaxon.example.test',
    sign: (action) => `signed-${action}-token`,
    expiresAt: 0,
  };

  it('when a voice page is rendered, then its speech names the incident and carries the acknowledge token, and Twilio still gets its TwiML', () => {
    const rendered = CHANNELS.voice.render(page);
    expect(rendered.speech).toEqual({ text: 'Klaxon alert. critical incident 42: Checkout is down, on shop.', acknowledgeToken: 'signed-acknowledge-token' });
    expect(rendered.voiceTwiml).toContain(
      '<Say>Klaxon alert. critical incident 42: Checkout is down, on shop.</Say><Say>Press 1 to acknowledge. Press 2 to escalate.</Say>',
    );
  });

  it('when the call is scripted, then it speaks the incident with the prompt and takes one key, posted to the input hook with the token', () => {
    const ncco = callNcco(CHANNELS.voice.render(page).speech!, 'https://klaxon.example.test');
    expect(ncco).toEqual([
      { action: 'talk', text: 'Klaxon alert. critical incident 42: Checkout is down, on shop. Press 1 to acknowledge.', bargeIn: true },
      {
        action: 'input',
        type: ['dtmf'],
        dtmf: { maxDigits: 1, timeOut: 10 },
        eventUrl: ['https://klaxon.example.test/hooks/vonage/input?token=signed-acknowledge-token'],
        eventMethod: 'POST',
      },
    ]);
  });

  it('when a token holds characters a query string gives meaning to, then they are escaped', () => {
    const ncco = callNcco({ text: 'x', acknowledgeToken: 'a+b/c=&d' }, 'https://k.test');
    expect(ncco[1]).toMatchObject({ eventUrl: ['https://k.test/hooks/vonage/input?token=a%2Bb%2Fc%3D%26d'] });
  });

  it('when a drill or a test call is scripted, then a drill takes its key and a test only speaks', () => {
    const drill = CHANNELS.voice.renderDrill!({
      resultId: randomUUID(),
      drillId: randomUUID(),
      to: '+15557654321',
      replyCode: null,
      appUrl: 'https://k.test',
      ackToken: 'drill-token',
      expiresAt: 0,
    });
    expect(callNcco(drill.speech!, 'https://k.test')).toEqual([
      expect.objectContaining({ action: 'talk', text: expect.stringMatching(/^This is a Klaxon paging drill\. .*Press 1 to acknowledge\.$/) }),
      expect.objectContaining({ action: 'input', eventUrl: ['https://k.test/hooks/vonage/input?token=drill-token'] }),
    ]);
    const test = CHANNELS.voice.renderTest!({
      notificationId: randomUUID(),
      to: '+15557654321',
      message: { subject: 's', text: 'This is a Klaxon test.', html: '', voiceTwiml: '<Response/>' },
      data: {},
    });
    expect(callNcco(test.speech!, 'https://k.test')).toEqual([{ action: 'talk', text: 'This is a Klaxon test. Goodbye.' }]);
  });

  it('when the input hook answers, then it speaks, and asks again only when told where', () => {
    expect(answerNcco('Incident #42 is acknowledged.')).toEqual([{ action: 'talk', text: 'Incident #42 is acknowledged.' }]);
    expect(answerNcco('That key does nothing.', { url: 'https://k.test/hooks/vonage/input?token=t' })).toEqual([
      { action: 'talk', text: 'That key does nothing. Press 1 to acknowledge.', bargeIn: true },
      expect.objectContaining({ action: 'input', eventUrl: ['https://k.test/hooks/vonage/input?token=t'] }),
    ]);
  });
});

describe('Vonage configuration', () => {
  it('when the five variables are set, then Vonage is configured after Twilio for SMS and voice, and the banner names no secret', () => {
    const notify = startWith({ ...VONAGE, VONAGE_SIGNATURE_SECRET: 'signature-secret-0123456789', VONAGE_API_URL: 'http://127.0.0.1:9003/' });
    expect(vonageSettings(notify)).toEqual({
      apiKey: 'a1b2c3d4',
      apiSecret: VONAGE.VONAGE_API_SECRET,
      applicationId: APPLICATION_ID,
      privateKey: PRIVATE_KEY,
      from: '15550001111',
      fromIsNumber: true,
      signatureSecret: 'signature-secret-0123456789',
      apiUrl: 'http://127.0.0.1:9003',
    });
    expect(vonageSettings(notify)).toBe(vonageSettings(notify));
    expect(channelProviders(notify)).toMatchObject({ sms: 'vonage', voice: 'vonage' });
    const banner = describeChannels(notify).filter((line) => /^Paging (SMS|voice)/.test(line));
    expect(banner).toEqual([
      'Paging SMS       Vonage, from 15550001111 via http://127.0.0.1:9003',
      'Paging voice     Vonage, from 15550001111 via http://127.0.0.1:9003',
    ]);
    for (const secret of [VONAGE.VONAGE_API_SECRET, 'signature-secret', 'BEGIN PRIVATE KEY']) expect(banner.join('\n')).not.toContain(secret);
    // Twilio first: with both configured, Twilio sends.
    const both = startWith({ ...VONAGE, TWILIO_ACCOUNT_SID: 'AC' + 'f'.repeat(32), TWILIO_AUTH_TOKEN: 't', TWILIO_FROM_NUMBER: '+15550002222' });
    expect(channelProviders(both)).toMatchObject({ sms: 'twilio', voice: 'twilio' });
    expect(vonageSettings(startWith({}))).toBeUndefined();
  });

  it('when the private key is a file, or inline with escaped newlines, then its PEM is read', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-vonage-'));
    try {
      writeFileSync(path.join(dir, 'private.key'), PRIVATE_KEY);
      expect(vonageSettings(startWith({ ...VONAGE, VONAGE_PRIVATE_KEY: path.join(dir, 'private.key') }))?.privateKey).toBe(PRIVATE_KEY);
      expect(vonageSettings(startWith({ ...VONAGE, VONAGE_PRIVATE_KEY: PRIVATE_KEY.replaceAll('\n', '\\n') }))?.privateKey).toBe(PRIVATE_KEY);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when VONAGE_FROM is an alphanumeric sender id, then it is kept as is and marked as no number', () => {
    expect(vonageSettings(startWith({ ...VONAGE, VONAGE_FROM: 'Klaxon' }))).toMatchObject({ from: 'Klaxon', fromIsNumber: false });
  });

  it.each([
    [{ VONAGE_API_SECRET: VONAGE.VONAGE_API_SECRET }, /^invalid configuration: VONAGE_API_KEY: required when VONAGE_API_SECRET is set/],
    [{ ...VONAGE, VONAGE_FROM: undefined }, /^invalid configuration: VONAGE_FROM: required when VONAGE_API_KEY is set/],
    [{ ...VONAGE, VONAGE_FROM: 'not a sender!' }, /^invalid configuration: VONAGE_FROM: must be an E\.164 number/],
    [{ ...VONAGE, VONAGE_APPLICATION_ID: 'app-secret-id' }, /^invalid configuration: VONAGE_APPLICATION_ID: must be a Vonage application id/],
    [
      { ...VONAGE, VONAGE_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nnot-a-key-secret\n-----END PRIVATE KEY-----' },
      /^invalid configuration: VONAGE_PRIVATE_KEY: must be a PEM private key/,
    ],
    [
      { ...VONAGE, VONAGE_PRIVATE_KEY: '/nonexistent/private.key' },
      /^invalid configuration: VONAGE_PRIVATE_KEY: is neither inline content nor a readable file/,
    ],
    [{ ...VONAGE, VONAGE_API_URL: 'ftp://vonage.example.test' }, /^invalid configuration: VONAGE_API_URL: must be an http\(s\) URL/],
    [{ ...VONAGE, VONAGE_SIGNATURE_SECRET: 'short' }, /^invalid configuration: VONAGE_SIGNATURE_SECRET: must be the account signature secret/],
  ])('when a VONAGE_* value is wrong (%#), then startup fails naming it, never echoing a value', (env, error) => {
    const message = startupError(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>);
    expect(message).toMatch(error);
    for (const value of [VONAGE.VONAGE_API_SECRET, 'not-a-key-secret', 'app-secret-id', 'not a sender!', 'short'].filter((v) => !error.source.includes(v)))
      expect(message).not.toContain(value);
  });
});

describe("Vonage's callback signature", () => {
  const SECRET = 'signature-secret-0123456789';
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const jwt = (claims: object, secret = SECRET, alg = 'HS256') => {
    const head = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`;
    return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
  };
  const body = JSON.stringify({ message_uuid: randomUUID(), status: 'delivered' });
  const hash = (s: string) => createHash('sha256').update(s).digest('hex');
  const claims = { iat: Math.floor(Date.now() / 1000), jti: randomUUID(), iss: 'Vonage', payload_hash: hash(body) };

  it('when the JWT is HS256 by the signature secret over this body, then it is Vonage', () => {
    expect(signedByVonage(SECRET, `Bearer ${jwt(claims)}`, body)).toBe(true);
  });

  it('when the JWT is missing, forged, over another body, unsigned or Klaxon has no secret, then it is not', () => {
    expect(signedByVonage(SECRET, '', body)).toBe(false);
    expect(signedByVonage(SECRET, `Bearer ${jwt(claims, 'another-secret-0123456789')}`, body)).toBe(false);
    expect(signedByVonage(SECRET, `Bearer ${jwt(claims)}`, `${body} `)).toBe(false);
    expect(signedByVonage(SECRET, `Bearer ${jwt({ ...claims, payload_hash: undefined })}`, body)).toBe(false);
    expect(signedByVonage(SECRET, `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`, body)).toBe(false);
    expect(signedByVonage(SECRET, `Bearer ${'a'.repeat(5000)}`, body)).toBe(false);
    expect(signedByVonage(undefined, `Bearer ${jwt(claims)}`, body)).toBe(false);
  });
});
