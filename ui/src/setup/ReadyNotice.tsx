import { Alert, Text } from '@mantine/core';
import { useApiQuery } from '../api/hooks';
import { useWebhooks } from './webhooks-query';
import { formatDuration } from '../paging/policy-form';
import type { PolicyStep } from '../paging/policy-form';
import type { Service, Team } from './types';

interface PolicyWithSteps {
  id: string;
  name: string;
  steps: PolicyStep[];
  repeat: number;
}

/**
 * A new workspace comes ready to page (sign-up made its team, "Default service" and "Default"
 * policy): until its first webhook exists, say so in words, so a newcomer knows the first alert
 * reaches someone and what to do next.
 */
export function ReadyNotice() {
  const services = useApiQuery<Service[]>(['services'], '/services');
  const teams = useApiQuery<Team[]>(['teams'], '/teams');
  const policies = useApiQuery<PolicyWithSteps[]>(['escalation-policies'], '/escalation-policies');
  const webhooks = useWebhooks();
  const service = services.data?.length === 1 ? services.data[0] : undefined;
  const policy = policies.data?.find((p) => p.id === service?.escalation_policy_id);
  const team = teams.data?.find((t) => t.id === service?.owning_team_id);
  if (!service || !policy || !team || webhooks.data?.length !== 0) return null;
  const again =
    policy.repeat > 0
      ? `, again every ${formatDuration(policy.steps.at(-1)!.delay_seconds)} (${policy.repeat} more time${policy.repeat > 1 ? 's' : ''}) until someone acknowledges`
      : '';
  return (
    <Alert color="green" title="Your workspace is ready to page" role="status">
      <Text size="sm">
        Alerts on {service.name} page the team {team.name} ({team.member_count} {team.member_count === 1 ? 'person' : 'people'}) through the escalation policy “
        {policy.name}”: at once{again}. Each person is reached by their own notification rules: yours start with your email at once (add a phone in My profile
        to be texted or called).
      </Text>
      <Text size="sm" mt="xs">
        Next: create a webhook below, copy its URL and post an alert to it. Its “Notify by” limits which of these rules apply; every channel is checked at
        first.
      </Text>
    </Alert>
  );
}
