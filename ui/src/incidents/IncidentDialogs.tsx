import { Button, Modal, MultiSelect, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import type { Incident, IncidentDetail } from '../api/types';
import { FormError } from '../components/PageStates';
import { targetFromValue, targetOptions, type Directory } from '../paging/targets';

// The incident page's dialogs, loaded when first opened: the page a responder opens at 3 a.m.
// does not wait for the pickers it may never use.

const OPEN = new Set(['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING']);

export type PageMode = 'responders' | 'reassign';

/** Who a responder can page: members, schedules and teams (loaded when the dialog opens). */
function useDirectory(enabled: boolean): Directory {
  const users = useApiQuery<Directory['users']>(['members'], '/members', { enabled });
  const schedules = useApiQuery<Directory['schedules']>(['schedules'], '/schedules', { enabled });
  const teams = useApiQuery<Directory['teams']>(['teams'], '/teams', { enabled });
  return { users: users.data ?? [], schedules: schedules.data ?? [], teams: teams.data ?? [] };
}

/** Add responders (page them now) or reassign (page them and restart escalation from them). */
export function RespondersModal({ incident, mode, onClose }: { incident: IncidentDetail; mode: PageMode | null; onClose: () => void }) {
  const directory = useDirectory(mode !== null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [message, setMessage] = useState('');
  const send = useAction(
    () => api('POST', `/incidents/${incident.id}/${mode}`, { targets: chosen.map(targetFromValue), ...(message.trim() ? { message: message.trim() } : {}) }),
    {
      invalidate: [['incident', incident.id], ['incidents']],
      onSuccess: () => {
        setChosen([]);
        setMessage('');
        onClose();
      },
    },
  );
  const title = mode === 'reassign' ? `Reassign #${incident.number}` : `Add responders to #${incident.number}`;
  return (
    <Modal opened={mode !== null} onClose={onClose} title={title}>
      <Stack
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          send.mutate();
        }}
      >
        <Text size="sm" c="dimmed">
          {mode === 'reassign'
            ? 'They are paged now through their own rules, and escalation starts again from them.'
            : 'They are paged now through their own rules; escalation goes on as before.'}
        </Text>
        <FormError message={send.formError} />
        <MultiSelect
          label="Who"
          placeholder={chosen.length ? undefined : 'People, schedules or teams'}
          data={targetOptions(directory, chosen.map(targetFromValue))}
          value={chosen}
          onChange={setChosen}
          searchable
          error={send.fieldError('targets')}
          comboboxProps={{ withinPortal: true }}
        />
        <Textarea
          label="Message (optional)"
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          maxLength={1000}
          error={send.fieldError('message')}
          rows={2}
        />
        <Button type="submit" disabled={chosen.length === 0} loading={send.isPending}>
          {mode === 'reassign' ? 'Reassign and page them' : 'Page them now'}
        </Button>
      </Stack>
    </Modal>
  );
}

/** Merge other open incidents into this one: their alerts move here, they resolve as "merged into #N". */
export function MergeModal({ incident, opened, onClose }: { incident: IncidentDetail; opened: boolean; onClose: () => void }) {
  const candidates = useApiQuery<Incident[]>(['incidents', 'merge-candidates'], '/incidents?limit=100', { enabled: opened });
  const [chosen, setChosen] = useState<string[]>([]);
  const merge = useAction(() => api('POST', `/incidents/${incident.id}/merge`, { incident_ids: chosen }), {
    invalidate: [['incident', incident.id], ['incidents']],
    onSuccess: () => {
      setChosen([]);
      onClose();
    },
  });
  const options = (candidates.data ?? [])
    .filter((c) => c.id !== incident.id && OPEN.has(c.status))
    .map((c) => ({ value: c.id, label: `#${c.number} ${c.title}` }));
  return (
    <Modal opened={opened} onClose={onClose} title={`Merge into #${incident.number}`}>
      <Stack
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          merge.mutate();
        }}
      >
        <Text size="sm" c="dimmed">
          Their alerts move into #{incident.number}; they are resolved as merged into it, and nobody is paged twice.
        </Text>
        <FormError message={merge.formError} />
        <MultiSelect
          label="Incidents to merge"
          data={options}
          value={chosen}
          onChange={setChosen}
          searchable
          nothingFoundMessage={candidates.isPending ? 'Loading…' : 'No other open incident'}
          error={merge.fieldError('incident_ids')}
          comboboxProps={{ withinPortal: true }}
        />
        <Button type="submit" disabled={chosen.length === 0} loading={merge.isPending}>
          Merge {chosen.length || ''} into #{incident.number}
        </Button>
      </Stack>
    </Modal>
  );
}
