/**
 * Paging: how people are reached (contact methods, notification rules), who is paged
 * (escalation policies, on-call schedules), the pages themselves (`notifications`, one writer:
 * pages.ts; quotas: page-quota.ts, counted with drill sends in quota-usage.ts), what an escalation step reads (escalation-context.ts) and
 * the in-app notifications a page leaves. The paging activities (activities/paging/) call these;
 * the channels are declared in the channel registry (src/domain/channels.ts) and sent by
 * src/integrations/; what a responder's answer does is in ../response/.
 */
export * from './contacts';
export * from './escalation-policies';
export * from './notification-rules';
export * from './schedules';
export * from './in-app-notifications';
export * from './contact-verification';
export * from './changes';
export * from './pages';
export * from './page-quota';
export * from './quota-usage';
export * from './escalation-context';
export * from './push-devices';
export * from './what-if';
export * from './what-if-slots';
export * from './readiness';
export * from './carrier-attempts';
export * from './delivery-reports';
