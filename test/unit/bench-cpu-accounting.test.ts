import { defaultPayloadConverter } from '@temporalio/common';
import { ComponentCpuMeter, perUnit } from '../../bench/harness/component-cpu';
import { backendDatabase, parseStat, threadKind, threadSplit, treeMs, type ProcStat } from '../../bench/harness/proc';
import { countToFirstSend, meanCounts, type History } from '../../bench/paging/history';

/** A stat line with utime/stime/cutime/cstime in ticks (10 ms each). */
const statLine = (pid: number, comm: string, ppid: number, [ut, st, cut, cst]: number[]) =>
  `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194304 100 0 0 0 ${ut} ${st} ${cut} ${cst} 20 0 8 0 123 456 789`;

describe('bench /proc accounting', () => {
  test("tells a Postgres backend's database from its process title, and the postmaster's own processes from backends", () => {
    expect(backendDatabase('postgres: postgres klaxon_temporal 127.0.0.1(43122) idle\0\0\0')).toBe('klaxon_temporal');
    expect(backendDatabase('postgres: postgres klaxon [local] SELECT')).toBe('klaxon');
    expect(backendDatabase('postgres: checkpointer ')).toBeUndefined();
    expect(backendDatabase('postgres: autovacuum launcher')).toBeUndefined();
    expect(backendDatabase('/usr/lib/postgresql/bin/postgres -D /data')).toBeUndefined();
  });

  test('parses a stat line, command names with spaces and parentheses included', () => {
    expect(parseStat(statLine(42, 'tokio-runtime-w', 7, [3, 2, 10, 5]))).toEqual({ comm: 'tokio-runtime-w', ppid: 7, ownMs: 50, childrenMs: 150 });
    expect(parseStat(statLine(43, 'a (b) c', 1, [1, 0, 0, 0]))).toMatchObject({ comm: 'a (b) c', ppid: 1, ownMs: 10 });
  });

  test('threads by kind: main is the pid, workflow threads by id, the Rust core by name, the rest other', () => {
    const wf = new Set([12]);
    expect(threadKind(10, 10, 'node', wf)).toBe('main');
    expect(threadKind(10, 12, 'node', wf)).toBe('workflow');
    expect(threadKind(10, 13, 'tokio-runtime-w', wf)).toBe('core');
    expect(threadKind(10, 14, 'workflow-proces', wf)).toBe('core');
    expect(threadKind(10, 15, 'node', wf)).toBe('other');
  });

  test('a thread split adds up to the process total: new threads count from 0, exited ones land in other', () => {
    const t = (entries: Array<[number, string, number]>) => new Map(entries.map(([tid, comm, ms]) => [tid, { comm, ms }]));
    const from = {
      totalMs: 1000,
      threads: t([
        [10, 'node', 500],
        [12, 'node', 200],
        [13, 'tokio-runtime-w', 100],
        [20, 'node', 50],
      ]),
    };
    // Thread 20 exited after using 30 ms more; thread 21 is new.
    const to = {
      totalMs: 1500,
      threads: t([
        [10, 'node', 700],
        [12, 'node', 300],
        [13, 'tokio-runtime-w', 150],
        [21, 'node', 40],
      ]),
    };
    const split = threadSplit(10, from, to, new Set([12]));
    expect(split).toEqual({ main: 200, workflow: 100, core: 50, other: 150, total: 500 });
  });

  test("a tree's CPU: the root, its live descendants, and each one's exited children", () => {
    const p = (ppid: number, ownMs: number, childrenMs = 0): ProcStat => ({ comm: 'postgres', ppid, ownMs, childrenMs });
    const procs = new Map<number, ProcStat>([
      [100, p(1, 1000, 5000)], // postmaster, with its exited backends
      [101, p(100, 200)],
      [102, p(101, 50)],
      [200, p(1, 9999)], // not under it
    ]);
    expect(treeMs(procs, 100)).toBe(6250);
    expect(treeMs(procs, 999)).toBeNaN();
    expect(treeMs(procs, undefined)).toBeNaN();
  });

  test('components: a live process is read, a stopped role is 0 when told so, otherwise n/a', () => {
    const meter = new ComponentCpuMeter([
      { kind: 'process', name: 'me', pid: () => process.pid },
      { kind: 'threads', pid: () => undefined, stoppedIsZero: true, labels: { main: 'w main', other: 'w other' }, workflowTids: () => new Set() },
      { kind: 'tree', name: 'external', pid: () => undefined },
    ]);
    const from = meter.mark();
    let x = 0;
    for (let i = 0; i < 2e7; i++) x += i % 7;
    const { ms } = meter.diff(from, meter.mark());
    expect(x).toBeGreaterThan(0);
    expect(ms.map(([name]) => name)).toEqual(['me', 'w main', 'w other', 'external']);
    expect(ms[0][1]).toBeGreaterThanOrEqual(0);
    expect(ms[1][1]).toBe(0);
    expect(ms[2][1]).toBe(0);
    expect(ms[3][1]).toBeNaN();
  });

  test('per unit: every component and the total, divided', () => {
    expect(
      perUnit(
        {
          seconds: 10,
          ms: [
            ['a', 100],
            ['b', 50],
          ],
        },
        50,
      ),
    ).toEqual([
      ['a', 2],
      ['b', 1],
      ['total', 3],
    ]);
  });
});

describe('history counts up to the first page sent', () => {
  const marker = (activity_type: string) => ({
    markerRecordedEventAttributes: {
      markerName: 'core_local_activity',
      details: { data: { payloads: [defaultPayloadConverter.toPayload({ activity_type })] } },
    },
  });
  const history = (events: object[]): History => ({ events: events.map((e, i) => ({ eventId: i + 1, ...e })) }) as unknown as History;
  const started = { workflowExecutionStartedEventAttributes: {} };
  const wtScheduled = { workflowTaskScheduledEventAttributes: {} };
  const wtStarted = { workflowTaskStartedEventAttributes: {} };
  const wtCompleted = { workflowTaskCompletedEventAttributes: {} };

  test('a local sendPage: counts to its marker, later events left out', () => {
    const h = history([
      started,
      wtScheduled,
      wtStarted,
      wtCompleted,
      marker('stepRecipients'),
      { activityTaskScheduledEventAttributes: { activityType: { name: 'recordAlerts' } } },
      wtScheduled,
      wtStarted,
      wtCompleted,
      marker('sendPage'),
      wtScheduled,
    ]);
    expect(countToFirstSend(h)).toEqual({ events: 10, workflowTasks: 2, localActivities: 2, activities: 1, sent: true });
  });

  test('a remote sendPage: counts to its completion', () => {
    const h = history([
      started,
      wtScheduled,
      wtStarted,
      wtCompleted,
      { activityTaskScheduledEventAttributes: { activityType: { name: 'sendPage' } } },
      { activityTaskStartedEventAttributes: { scheduledEventId: 5 } },
      { activityTaskCompletedEventAttributes: { scheduledEventId: 5 } },
      wtScheduled,
    ]);
    expect(countToFirstSend(h)).toEqual({ events: 7, workflowTasks: 1, localActivities: 0, activities: 1, sent: true });
  });

  test('means over the histories that sent, none is NaN', () => {
    const sent = history([started, wtCompleted, marker('sendPage')]);
    const unsent = history([started, wtCompleted]);
    expect(meanCounts([sent, unsent])).toEqual({ histories: 1, events: 3, workflowTasks: 1, localActivities: 1, activities: 0 });
    expect(meanCounts([unsent]).events).toBeNaN();
  });
});
