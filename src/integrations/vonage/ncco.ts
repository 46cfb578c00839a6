/**
 * What a Vonage call does (pure): its NCCO, Vonage's call script
 * (https://developer.vonage.com/en/voice/voice-api/ncco-reference). A page's call speaks the
 * incident (the voice render's carrier-neutral `speech`, src/integrations/twilio/channel.ts) and
 * takes one key: the input's eventUrl is Klaxon's `/hooks/vonage/input`, carrying the page's
 * signed one-use acknowledge token, and the NCCO that hook answers is what the call says next.
 */

/** The NCCO actions Klaxon uses, keyed as Vonage reads them (camelCase, unlike the REST bodies). */
export type NccoAction =
  | { action: 'talk'; text: string; bargeIn?: boolean; language?: string }
  | {
      action: 'input';
      type: ['dtmf'];
      dtmf: { maxDigits: number; timeOut: number; submitOnHash?: boolean };
      eventUrl: [string];
      eventMethod: 'POST';
    };

/** Seconds the call waits for a key after speaking. */
export const KEYPRESS_TIMEOUT_SECONDS = 10;
export const PRESS_TO_ACKNOWLEDGE = 'Press 1 to acknowledge.';
export const NO_KEY_PRESSED = 'No key pressed. Goodbye.';

/** Where a call's keypress goes: the input hook, with the token pressing 1 answers with. */
export const inputUrl = (appUrl: string, token: string): string => `${appUrl}/hooks/vonage/input?token=${encodeURIComponent(token)}`;

/** Where a call's events go (answered, completed, failed, …): the page's delivery status follows them. */
export const callEventUrl = (appUrl: string): string => `${appUrl}/hooks/vonage/event`;

/** Where a message's status goes (delivered, rejected, …). */
export const messageStatusUrl = (appUrl: string): string => `${appUrl}/hooks/vonage/status`;

/** The input action: one DTMF key, sent to `url`. */
export function keypress(url: string): NccoAction {
  return { action: 'input', type: ['dtmf'], dtmf: { maxDigits: 1, timeOut: KEYPRESS_TIMEOUT_SECONDS }, eventUrl: [url], eventMethod: 'POST' };
}

/**
 * A call's NCCO: the words, then, when the call can be acknowledged, the prompt (a key may cut
 * it short: `bargeIn`) and the keypress. Without a token (a test call) it only speaks.
 */
export function callNcco(speech: { text: string; acknowledgeToken?: string }, appUrl: string): NccoAction[] {
  if (!speech.acknowledgeToken) return [{ action: 'talk', text: speech.text }];
  return [{ action: 'talk', text: `${speech.text} ${PRESS_TO_ACKNOWLEDGE}`, bargeIn: true }, keypress(inputUrl(appUrl, speech.acknowledgeToken))];
}

/**
 * The input hook's answer: it says `message`, and, when `again` (another key than 1), asks once
 * more for the key, to the same hook.
 */
export function answerNcco(message: string, again?: { url: string }): NccoAction[] {
  if (!again) return [{ action: 'talk', text: message }];
  return [{ action: 'talk', text: `${message} ${PRESS_TO_ACKNOWLEDGE}`, bargeIn: true }, keypress(again.url)];
}
