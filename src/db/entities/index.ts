import { AlertSchema } from './alert';
import { AlertSourceSchema } from './alert-source';
import { HeartbeatSchema } from './heartbeat';
import { IdempotencyRecordSchema } from './idempotency-record';
import { OutboxMessageSchema } from './outbox-message';
import { ApiTokenSchema } from './api-token';
import { ApiKeySchema } from './api-key';
import { IncidentSchema } from './incident';
import { MembershipSchema } from './membership';
import { MonitorSchema } from './monitor';
import { OrganizationSchema } from './organization';
import { ServiceSchema } from './service';
import { TeamSchema } from './team';
import { TimelineEntrySchema } from './timeline-entry';
import { UserSchema } from './user';
import { ContactMethodSchema } from './contact-method';
import { NotificationRuleSchema } from './notification-rule';
import { EscalationPolicySchema } from './escalation-policy';
import { ScheduleSchema } from './schedule';
import { ScheduleOverrideSchema } from './schedule-override';
import { TeamMemberSchema } from './team-member';
import { PageRecordSchema } from './page';
import { InAppNotificationSchema } from './in-app-notification';
import { DevDeliverySchema } from './dev-delivery';
import { ProviderCallbackSchema } from './provider-callback';
import { ReplyCodeCursorSchema } from './reply-code-cursor';
import { SessionSchema } from './session';
import { AccountTokenSchema } from './account-token';
import { AuditEntrySchema } from './audit-entry';
import { InvitationSchema } from './invitation';
import { RecoveryCodeSchema } from './recovery-code';
import { PlanUsageSchema } from './plan-usage';
import { MonitorCheckSchema } from './monitor-check';
import { RequestMetricSchema } from './request-metric';
import { ThrottleCountSchema } from './throttle-count';
import { IncidentEventSchema } from './incident-event';
import { IncidentEventConsumerSchema } from './incident-event-consumer';
import { OutgoingWebhookSchema } from './outgoing-webhook';
import { ServiceChatDestinationSchema } from './service-chat-destination';
import { ChatActionNonceSchema } from './chat-action-nonce';
import { SlackInstallationSchema } from './slack-installation';
import { SlackMessageSchema } from './slack-message';
import { FeedDeliverySchema } from './feed-delivery';
import { ImportMappingSchema } from './import-mapping';
import { ImportLeftOutSchema } from './import-left-out';
import { SamlRequestSchema } from './saml-request';
import { SamlConsumedAssertionSchema } from './saml-consumed-assertion';
import { ScimTokenSchema, ScimUserSchema, ScimGroupSchema } from './scim';
import { MaintenanceWindowSchema } from './maintenance-window';
import { SsoConnectionSchema } from './sso-connection';
import { SsoDomainSchema } from './sso-domain';
import { ExternalIdentitySchema } from './external-identity';
import { SsoLoginAttemptSchema } from './sso-login-attempt';
import { DrillResultSchema, DrillSchema, DrillScheduleSchema } from './drill';
import { WhatIfRunSchema } from './what-if-run';
import { WatchdogCanarySchema } from './watchdog-canary';
import { CarrierAttemptSchema, CarrierEarlyReportSchema } from './carrier-attempt';
import { IncidentFirstPageSchema, LatencyMinuteSchema, LatencyTotalSchema } from './latency-metric';
import { ServiceGroupingSchema } from './service-grouping';

export * from './alert';
export * from './alert-source';
export * from './heartbeat';
export * from './idempotency-record';
export * from './outbox-message';
export * from './api-token';
export * from './api-key';
export * from './incident';
export * from './membership';
export * from './monitor';
export * from './organization';
export * from './service';
export * from './team';
export * from './timeline-entry';
export * from './user';
export * from './contact-method';
export * from './notification-rule';
export * from './escalation-policy';
export * from './schedule';
export * from './schedule-override';
export * from './team-member';
export * from './page';
export * from './in-app-notification';
export * from './dev-delivery';
export * from './provider-callback';
export * from './reply-code-cursor';
export * from './session';
export * from './account-token';
export * from './audit-entry';
export * from './invitation';
export * from './recovery-code';
export * from './plan-usage';
export * from './monitor-check';
export * from './request-metric';
export * from './latency-metric';
export * from './throttle-count';
export * from './incident-event';
export * from './incident-event-consumer';
export * from './outgoing-webhook';
export * from './service-chat-destination';
export * from './chat-action-nonce';
export * from './slack-installation';
export * from './slack-message';
export * from './feed-delivery';
export * from './import-mapping';
export * from './saml-request';
export * from './saml-consumed-assertion';
export * from './scim';
export * from './maintenance-window';
export * from './sso-connection';
export * from './sso-domain';
export * from './external-identity';
export * from './sso-login-attempt';
export * from './drill';
export * from './what-if-run';
export * from './watchdog-canary';

/** Every entity the ORM knows; migrations are checked against exactly this list. */
export const ENTITIES = [
  OrganizationSchema,
  UserSchema,
  MembershipSchema,
  TeamSchema,
  ServiceSchema,
  AlertSourceSchema,
  MonitorSchema,
  IncidentSchema,
  TimelineEntrySchema,
  ApiTokenSchema,
  ApiKeySchema,
  AlertSchema,
  IdempotencyRecordSchema,
  OutboxMessageSchema,
  HeartbeatSchema,
  ContactMethodSchema,
  NotificationRuleSchema,
  EscalationPolicySchema,
  ScheduleSchema,
  ScheduleOverrideSchema,
  TeamMemberSchema,
  PageRecordSchema,
  InAppNotificationSchema,
  DevDeliverySchema,
  ProviderCallbackSchema,
  ReplyCodeCursorSchema,
  SessionSchema,
  AccountTokenSchema,
  AuditEntrySchema,
  InvitationSchema,
  RecoveryCodeSchema,
  PlanUsageSchema,
  MonitorCheckSchema,
  RequestMetricSchema,
  ThrottleCountSchema,
  IncidentEventSchema,
  IncidentEventConsumerSchema,
  OutgoingWebhookSchema,
  FeedDeliverySchema,
  SlackInstallationSchema,
  ServiceChatDestinationSchema,
  ChatActionNonceSchema,
  ImportMappingSchema,
  ImportLeftOutSchema,
  SlackMessageSchema,
  SamlRequestSchema,
  SamlConsumedAssertionSchema,
  ScimTokenSchema,
  ScimUserSchema,
  ScimGroupSchema,
  MaintenanceWindowSchema,
  SsoConnectionSchema,
  SsoDomainSchema,
  ExternalIdentitySchema,
  SsoLoginAttemptSchema,
  DrillSchema,
  DrillResultSchema,
  DrillScheduleSchema,
  WhatIfRunSchema,
  WatchdogCanarySchema,
  CarrierAttemptSchema,
  CarrierEarlyReportSchema,
  ServiceGroupingSchema,
  LatencyMinuteSchema,
  LatencyTotalSchema,
  IncidentFirstPageSchema,
];
