import { Alert, Badge, Button, Code, Group, Stack, Table, Text } from '@mantine/core';
import { api } from '../api/client';
import { useAction } from '../api/hooks';
import type { SsoDomain } from './sso-form';

/**
 * The listed email domains and their proof (docs/sso.md, "Proving a domain"): each one's state, the
 * DNS TXT record that proves it, and a Verify button. Only a proven domain sends its people's
 * logins to the identity provider and lets new ones in.
 */
export function SsoDomains({ domains }: { domains: SsoDomain[] }) {
  const verify = useAction((domain: string) => api<{ domain: string; verified: true }>('POST', `/sso/domains/${encodeURIComponent(domain)}/verify`), {
    invalidate: [['sso']],
  });
  if (!domains.length) return null;
  return (
    <Stack gap="xs">
      <Text size="sm">
        Prove each domain is yours: publish its TXT record at the domain with your DNS provider, then press Verify. Until then it sends no logins to your
        identity provider and lets nobody in.
      </Text>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Domain</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>TXT record</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {domains.map((d) => (
            <Table.Tr key={d.domain}>
              <Table.Td>{d.domain}</Table.Td>
              <Table.Td>
                <Badge color={d.verified ? 'green' : 'yellow'} variant="light">
                  {d.verified ? 'Verified' : 'Not verified'}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Code aria-label={`TXT record for ${d.domain}`}>{d.txt_record}</Code>
              </Table.Td>
              <Table.Td>
                {!d.verified && (
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Verify ${d.domain}`}
                    loading={verify.isPending && verify.variables === d.domain}
                    onClick={() => verify.mutate(d.domain)}
                  >
                    Verify
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {verify.errorMessage && (
        <Alert color="red" title={`${verify.variables ?? 'The domain'} is not verified`}>
          {verify.errorMessage}
        </Alert>
      )}
      {verify.isSuccess && (
        <Group>
          <Alert color="green">{verify.data.data.domain} is verified: its people sign in through your identity provider.</Alert>
        </Group>
      )}
    </Stack>
  );
}
