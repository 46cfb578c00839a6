import { valuesRun } from '../harness/load';
import type { Figure } from '../harness/report';
import type { TaskSplit } from './history';

/** Kinds of task in the order a page goes through them; others (projections) after. */
const ORDER = ['workflow task', 'planEscalation', 'stepRecipients', 'sendPage'];

/**
 * Figures from per-incident task splits: for each kind of task, the time queued and the time
 * running, summed per incident. Rows are indented under the figure they explain.
 */
export function splitFigures(key: string, splits: TaskSplit[], like: { durationS: number; concurrency: number }): Figure[] {
  const kinds = [...new Set(splits.flatMap((s) => Object.keys(s)))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return kinds.flatMap((kind) =>
    (['queued', 'ran'] as const).map((part) => ({
      key: `${key}_${kind.replace(/\W+/g, '_').toLowerCase()}_${part}_ms`,
      label: `    ${kind}: ${part === 'queued' ? 'queued for the worker' : 'running'}`,
      run: valuesRun(
        splits.flatMap((s) => (s[kind] ? [s[kind][part]] : [])),
        like,
      ),
    })),
  );
}

const rank = (kind: string) => (ORDER.includes(kind) ? ORDER.indexOf(kind) : ORDER.length);
