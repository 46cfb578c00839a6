/**
 * Paging configuration: how people are reached (contact methods, notification rules), who is
 * paged (escalation policies, on-call schedules), and the in-app notifications a page leaves.
 * Sending a page is an activity (activities/paging/); the channels and their providers are
 * declared in the channel registry (src/domain/channels.ts); what a responder's answer does is
 * in ../response/.
 */
export * from './contacts';
export * from './escalation-policies';
export * from './notification-rules';
export * from './schedules';
export * from './user-notifications';
export * from './contact-verification';
export * from './changes';
