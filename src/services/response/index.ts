/**
 * What a responder's answer to a page does: SMS replies (`4A`), call keypresses, signed links in
 * emails and push actions acknowledge, resolve or escalate the incident through its workflow;
 * provider delivery reports update the page's notification row. Signed action tokens are made
 * and checked here too.
 */
export * from './action-tokens';
export * from './page-responses';
