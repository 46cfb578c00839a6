import { createVerify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSnsEnvelope, type SnsEnvelope } from '../../../../src/domain/ingest/native/sns-envelope';
import { isSnsSigningCertUrl, isSnsUrl, snsSignatureAlgorithm, snsStringToSign } from '../../../../src/domain/ingest/native/sns-verification';
import { snsSender } from '../../../../src/domain/ingest/native/sns';
import { FIXTURES_DIR, fixtureBody } from '../native-fixtures';

const CERT = readFileSync(path.join(FIXTURES_DIR, 'sns/test-signing-cert.pem'), 'utf8');
const SNS_FIXTURES = ['sns/cloudwatch_alarm.json', 'sns/cloudwatch_ok.json', 'sns/subscription_confirmation.json', 'sns/unsubscribe_confirmation.json'];
const envelopeOf = (name: string): SnsEnvelope => parseSnsEnvelope(fixtureBody(name)) as SnsEnvelope;

/** What the (future) verifier will do with our pure pieces, using the README's throw-away cert. */
function verifies(envelope: SnsEnvelope): boolean {
  const signed = snsStringToSign(envelope);
  const algorithm = snsSignatureAlgorithm(envelope.SignatureVersion);
  if (signed === undefined || algorithm === undefined) return false;
  return createVerify(algorithm).update(signed, 'utf8').verify(CERT, envelope.Signature, 'base64');
}

describe('SNS verification inputs', () => {
  it.each(SNS_FIXTURES)('when %s is checked against the fixture certificate, then the string-to-sign verifies', (name) => {
    expect(verifies(envelopeOf(name))).toBe(true);
  });

  const SIGNED = ['Message', 'MessageId', 'Subject', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn'] as const;
  const tampered = SNS_FIXTURES.flatMap((name) => SIGNED.filter((field) => envelopeOf(name)[field] !== undefined).map((field) => [name, field] as const));

  it.each(tampered)('when %s has %s changed, then verification fails', (name, field) => {
    expect(verifies({ ...envelopeOf(name), [field]: `${envelopeOf(name)[field]}x` })).toBe(false);
  });

  it('when the Type is changed, then verification fails', () => {
    expect(verifies({ ...envelopeOf('sns/unsubscribe_confirmation.json'), Type: 'SubscriptionConfirmation' })).toBe(false);
  });

  it('when the signature version is unknown, then there is no algorithm', () => {
    expect(snsSignatureAlgorithm('3')).toBeUndefined();
  });

  it('when a required envelope field is missing or not a string, then there is no envelope to verify', () => {
    const { Signature: _dropped, ...unsigned } = fixtureBody('sns/cloudwatch_alarm.json');
    expect(parseSnsEnvelope(unsigned)).toBeUndefined();
    expect(parseSnsEnvelope({ ...fixtureBody('sns/cloudwatch_alarm.json'), MessageId: 7 })).toBeUndefined();
    expect(snsSender.normalise(unsigned, { 'x-amz-sns-message-type': 'Notification' })).toEqual([]);
  });

  it.each([
    ['https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&Token=t', true],
    ['https://sns.cn-north-1.amazonaws.com.cn/x', true],
    ['http://sns.eu-west-1.amazonaws.com/', false],
    ['https://sns.eu-west-1.amazonaws.com.evil.example/', false],
    ['https://evil.example/sns.eu-west-1.amazonaws.com/', false],
    ['https://sns.eu-west-1.amazonaws.com:8443/', false],
    ['https://user@sns.eu-west-1.amazonaws.com/', false],
    ['https://169.254.169.254/latest/meta-data', false],
    ['not a url', false],
  ])('when the URL is %s, then trusting it as SNS is %s', (url, trusted) => {
    expect(isSnsUrl(url)).toBe(trusted);
  });

  it('when a signing certificate URL is checked, then it must be an SNS .pem', () => {
    expect(isSnsSigningCertUrl(envelopeOf('sns/cloudwatch_alarm.json').SigningCertURL)).toBe(true);
    expect(isSnsSigningCertUrl('https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe')).toBe(false);
  });
});

describe('SNS notifications that are not CloudWatch alarms', () => {
  it('when the Message is plain text, then it triggers with the Subject as title, keyed by MessageId', () => {
    const body = { ...fixtureBody('sns/cloudwatch_alarm.json'), Subject: 'Backup job failed', Message: 'nightly backup exited 2' };
    expect(snsSender.normalise(body, {})).toEqual([
      {
        source: 'aws-sns',
        action: 'trigger',
        title: 'Backup job failed',
        severity: 'warning',
        dedupKey: 'ef7bb482-aebf-4f3d-b3c2-667985b4d842',
        message: 'nightly backup exited 2',
        metadata: { topicArn: 'arn:aws:sns:eu-west-1:318442907165:prod-cloudwatch-alarms' },
      },
    ]);
  });

  it('when there is no Subject, then the title says it is an SNS notification', () => {
    const { Subject: _dropped, ...body } = fixtureBody('sns/cloudwatch_alarm.json');
    expect(snsSender.normalise({ ...body, Message: '{"detail":"x"}' }, {})[0].title).toBe('SNS notification');
  });
});
