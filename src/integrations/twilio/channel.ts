/**
 * Twilio's paging channels, declared (pure): SMS pages carry the reply code an answer starts with
 * (hooks.ts reads the answer), calls play TwiML that gathers a keypress. Both report delivery to
 * `/hooks/twilio/status`. Vonage sends them too (src/integrations/vonage/), when Twilio is not
 * configured: it sends the same text, and builds its call from the render's carrier-neutral
 * `speech` (what the call says, and the token pressing 1 answers with).
 */
import { phoneNumber } from '../../domain/addresses';
import { DRILL_MARK } from '../../domain/drill-mark';
import { pageSubject } from '../../domain/paging/messages';
import type { ChannelDeclaration } from '../channel';
import { DRILL_SPEECH, drillSmsText, drillVoiceTwiml, smsText, voiceSpeech, voiceTwiml } from './messages';

const CREDENTIALS = 'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER or the VONAGE_* group';
const PHONE = { label: 'Phone number', placeholder: '+14155550100' };
const drillSubject = `${DRILL_MARK}: no incident`;
const statusCallback = (appUrl: string) => `${appUrl}/hooks/twilio/status`;

/*
 * Form B's default channels follow the spec's table: critical → SMS, voice, email; warning → SMS,
 * email; info → email. Our five-level scale maps high and medium to warning, low and info to info.
 */
export const twilioChannels = {
  sms: {
    label: 'SMS',
    bannerLabel: 'SMS',
    address: PHONE,
    normalise: phoneNumber,
    formB: { name: 'sms', aliases: [], minSeverity: 'MEDIUM' },
    quota: { limit: 'smsPerUserPerMonth', pages: 'SMS' },
    providers: ['twilio', 'vonage'],
    credentials: CREDENTIALS,
    replyCodes: true,
    render: (p) => ({ subject: pageSubject(p.subject), text: smsText(p.subject, p.replyCode ?? 0), statusCallbackUrl: statusCallback(p.appUrl) }),
    renderDrill: (d) => ({ subject: drillSubject, text: drillSmsText(d.replyCode ?? 0), statusCallbackUrl: statusCallback(d.appUrl) }),
    renderTest: (t) => ({ subject: t.message.subject, text: t.message.text }),
  },
  voice: {
    label: 'Voice call',
    bannerLabel: 'voice',
    address: PHONE,
    normalise: phoneNumber,
    formB: { name: 'voice', aliases: ['call'], minSeverity: 'CRITICAL' },
    quota: { limit: 'voicePerUserPerMonth', pages: 'voice call' },
    providers: ['twilio', 'vonage'],
    credentials: CREDENTIALS,
    replyCodes: false,
    render: (p) => ({
      subject: pageSubject(p.subject),
      text: pageSubject(p.subject),
      voiceTwiml: voiceTwiml(p.subject, `${p.appUrl}/hooks/twilio/voice?notification=${p.notificationId}`),
      speech: { text: voiceSpeech(p.subject), acknowledgeToken: p.sign('acknowledge') },
      statusCallbackUrl: statusCallback(p.appUrl),
    }),
    renderDrill: (d) => ({
      subject: drillSubject,
      text: drillSubject,
      voiceTwiml: drillVoiceTwiml(`${d.appUrl}/hooks/twilio/voice?drill_result=${d.resultId}`),
      speech: { text: DRILL_SPEECH, acknowledgeToken: d.ackToken },
      statusCallbackUrl: statusCallback(d.appUrl),
    }),
    renderTest: (t) => ({ subject: t.message.subject, text: t.message.text, voiceTwiml: t.message.voiceTwiml, speech: { text: `${t.message.text} Goodbye.` } }),
  },
} as const satisfies Record<string, ChannelDeclaration<'twilio' | 'vonage'>>;
