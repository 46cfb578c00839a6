import type { QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { useAction } from '../api/hooks';

/**
 * A change to one row that is asked first, in a `ConfirmModal`: `ask(row)` opens the question
 * (clearing the last refusal), `modal` is the dialog's state (`<ConfirmModal {...x.modal}>`). The
 * question closes when the server agrees; its refusal (a 409) stays inside for the person to read.
 */
export function useConfirmedAction<TItem, TData = unknown>(
  run: (item: TItem) => Promise<TData>,
  options: { invalidate?: QueryKey[]; onSuccess?: (data: TData, item: TItem) => void } = {},
) {
  const [target, setTarget] = useState<TItem | null>(null);
  const action = useAction(run, {
    invalidate: options.invalidate,
    onSuccess: (data, item) => {
      setTarget(null);
      options.onSuccess?.(data, item);
    },
  });
  return {
    /** The row being asked about, or null when no question is open. */
    target,
    ask: (item: TItem) => {
      action.reset();
      setTarget(item);
    },
    modal: {
      opened: target !== null,
      loading: action.isPending,
      error: action.errorMessage,
      onConfirm: () => {
        if (target !== null) action.mutate(target);
      },
      onCancel: () => setTarget(null),
    },
  };
}
