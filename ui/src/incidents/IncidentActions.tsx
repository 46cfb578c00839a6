import { Button, Group, Select, Stack, Text, Textarea } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { api } from '../api/client';
import { useAction } from '../api/hooks';
import type { IncidentDetail } from '../api/types';
import { FormError } from '../components/PageStates';
import type { PageMode } from './IncidentDialogs';

const RespondersModal = lazy(async () => ({ default: (await import('./IncidentDialogs')).RespondersModal }));
const MergeModal = lazy(async () => ({ default: (await import('./IncidentDialogs')).MergeModal }));

/** The longest note the server takes (docs/incident-page.md). */
export const NOTE_MAX = 10_000;
const SNOOZE_CHOICES = [
  { value: '15', label: '15 minutes' },
  { value: '30', label: '30 minutes' },
  { value: '60', label: '1 hour' },
  { value: '120', label: '2 hours' },
  { value: '240', label: '4 hours' },
  { value: '480', label: '8 hours' },
  { value: '1440', label: '24 hours' },
];
const OPEN = new Set(['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING']);

/** A responder's actions besides the status buttons: a note, more responders, reassign, snooze (acknowledged only) and merge. */
export function IncidentActions({ incident }: { incident: IncidentDetail }) {
  const [note, setNote] = useState('');
  const [pageMode, setPageMode] = useState<PageMode | null>(null);
  const [merging, setMerging] = useState(false);
  const [snoozeFor, setSnoozeFor] = useState<string | null>('60');
  const invalidate = [['incident', incident.id], ['incidents']];
  const addNote = useAction(() => api('POST', `/incidents/${incident.id}/notes`, { text: note }), { invalidate, onSuccess: () => setNote('') });
  const snooze = useAction(() => api('POST', `/incidents/${incident.id}/snooze`, { minutes: Number(snoozeFor) }), { invalidate });
  const open = OPEN.has(incident.status);
  return (
    <Stack gap="xs">
      <FormError message={snooze.errorMessage} />
      <Group gap="xs" wrap="wrap" align="end">
        {open && (
          <>
            <Button variant="default" onClick={() => setPageMode('responders')}>
              Add responders
            </Button>
            <Button variant="default" onClick={() => setPageMode('reassign')}>
              Reassign
            </Button>
            <Button variant="default" onClick={() => setMerging(true)}>
              Merge incidents
            </Button>
          </>
        )}
        {incident.status === 'ACKNOWLEDGED' && (
          <Group gap={4} wrap="nowrap" align="end">
            <Select aria-label="Snooze for" data={SNOOZE_CHOICES} value={snoozeFor} onChange={setSnoozeFor} allowDeselect={false} w={130} />
            <Button variant="default" onClick={() => snooze.mutate()} loading={snooze.isPending}>
              Snooze
            </Button>
          </Group>
        )}
      </Group>
      <Stack
        gap={4}
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (note.trim()) addNote.mutate();
        }}
      >
        <Textarea
          label="Note"
          placeholder="What you found, what you did (Markdown shows as text; links are clickable)"
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={NOTE_MAX}

          rows={3}
          error={addNote.errorMessage}
        />
        <Group justify="space-between" wrap="nowrap">
          <Text size="xs" c="dimmed">
            {note.length.toLocaleString()} / {NOTE_MAX.toLocaleString()}
          </Text>
          <Button type="submit" size="compact-sm" disabled={!note.trim()} loading={addNote.isPending}>
            Add note
          </Button>
        </Group>
      </Stack>
      <Suspense fallback={null}>
        {pageMode && <RespondersModal incident={incident} mode={pageMode} onClose={() => setPageMode(null)} />}
        {merging && <MergeModal incident={incident} opened onClose={() => setMerging(false)} />}
      </Suspense>
    </Stack>
  );
}
