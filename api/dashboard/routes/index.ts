import { integrationDashboardRoutes } from '../../../src/integrations/wiring';
import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';
import { auditRoutes } from './audit';
import { catalogRoutes } from './catalog';
import { credentialsRoutes } from './credentials';
import { devInboxRoutes } from './dev-inbox';
import { drillRoutes } from './drills';
import { eventRoutes } from './events';
import { feedDeliveryRoutes } from './feed-deliveries';
import { importRoutes } from './imports';
import { incidentRoutes } from './incidents';
import { invitationPublicRoutes, membersRoutes } from './members';
import { maintenanceWindowRoutes } from './maintenance-windows';
import { monitorRoutes } from './monitors';
import { inAppNotificationsRoutes } from './in-app-notifications';
import { integrationRoutes } from './integrations';
import { outgoingWebhookRoutes } from './outgoing-webhooks';
import { readinessRoutes } from './readiness';
import { reportsRoutes } from './reports';
import { statusRoutes } from './status';
import { inboundWebhooksRoutes } from './inbound-webhooks';
import { pagingRoutes } from './paging';
import { profileRoutes } from './profile';
import { scimTokenRoutes } from './scim-token';
import { securityRoutes } from './security';
import { serviceChatRoutes } from './service-chat';
import { ssoRoutes } from './sso';
import { teamsRoutes } from './teams';

/** Every route under /api that needs a session (and, when it changes state, the CSRF header). */
export const sessionRoutes = (deps: AdminDeps): RouteSpec[] => [
  ...securityRoutes(deps),
  ...incidentRoutes(deps),
  ...eventRoutes(deps),
  ...credentialsRoutes(deps),
  ...membersRoutes(deps),
  ...teamsRoutes(deps),
  ...catalogRoutes(deps),
  ...maintenanceWindowRoutes(deps),
  ...pagingRoutes(deps),
  ...profileRoutes(deps),
  ...monitorRoutes(deps),
  ...inboundWebhooksRoutes(deps),
  ...outgoingWebhookRoutes(deps),
  ...feedDeliveryRoutes(deps),
  ...integrationRoutes(deps),
  ...integrationDashboardRoutes(deps),
  ...serviceChatRoutes(deps),
  ...inAppNotificationsRoutes(deps),
  ...reportsRoutes(deps),
  ...readinessRoutes(deps),
  ...drillRoutes(deps),
  ...statusRoutes(deps),
  ...auditRoutes(deps),
  ...importRoutes(deps),
  ...scimTokenRoutes(deps),
  ...ssoRoutes(deps),
];

/** Routes under /api that need no session (an invitation's link, …). */
export const publicRoutes = (deps: AdminDeps): RouteSpec[] => [...invitationPublicRoutes(deps), ...devInboxRoutes(deps)];
