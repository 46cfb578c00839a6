/**
 * Paging configuration and responses: how people are reached (contact methods, notification
 * rules), who is paged (escalation policies, on-call schedules), the in-app notifications a page
 * leaves, and what a responder's answer does (SMS replies, call keypresses, signed links and push
 * actions). Sending a page is an activity (activities/paging/); the channels and their providers
 * are declared in the channel registry.
 */
export * from './action-tokens';
export * from './contacts';
export * from './escalation-policies';
export * from './notification-rules';
export * from './page-responses';
export * from './schedules';
export * from './user-notifications';
