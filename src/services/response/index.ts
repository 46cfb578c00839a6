/**
 * What a responder's answer to a page does: signed links in emails and push actions acknowledge
 * or resolve the incident through its workflow, once per token. Signed action tokens are made and
 * checked here too. A provider's own callbacks (Twilio's SMS replies, keypresses and delivery
 * reports) live with the provider (src/integrations/twilio/responses.ts) and act through `act` and
 * `once` here.
 */
export * from './action-tokens';
export * from './page-responses';
export * from './incident-links';
export * from './drill-responses';
export * from './page-links';
