import { Button } from '@mantine/core';
import type { QueryKey } from '@tanstack/react-query';
import { api } from '../api/client';
import { useAction } from '../api/hooks';

/** A monitor or a heartbeat: both pause and resume the same way. */
interface Pausable {
  id: string;
  name: string;
  status: 'ACTIVE' | 'PAUSED';
}

/** POST /{collection}/{id}/pause, or /resume when it is paused. */
export function usePauseToggle(collection: 'monitors' | 'heartbeats', invalidate: QueryKey[]) {
  return useAction((item: Pausable) => api('POST', `/${collection}/${item.id}/${item.status === 'PAUSED' ? 'resume' : 'pause'}`), { invalidate });
}

/** A row's Pause or Resume button, named after the row ("Pause nightly backup"); it spins while that row's change is sent. */
export function PauseButton({ item, toggle }: { item: Pausable; toggle: ReturnType<typeof usePauseToggle> }) {
  const verb = item.status === 'PAUSED' ? 'Resume' : 'Pause';
  return (
    <Button
      size="compact-sm"
      variant="default"
      loading={toggle.isPending && toggle.variables?.id === item.id}
      onClick={() => toggle.mutate(item)}
      aria-label={`${verb} ${item.name}`}
    >
      {verb}
    </Button>
  );
}
