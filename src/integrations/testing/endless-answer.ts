import type { ServerResponse } from 'node:http';

/**
 * How an endless answer streams: `flood` as fast as the client reads (64 KiB writes, each after
 * the last drained), `drip` 64 bytes every 100 ms (an answer that outlasts any deadline while
 * staying far under any byte cap).
 */
export type EndlessPace = 'flood' | 'drip';

/** One endless answer as the peer saw it. */
export interface EndlessAnswer {
  pace: EndlessPace;
  status: number;
  /** When the head was sent (ms since the epoch). */
  openedAt: number;
  /** When the connection closed, null while it streams. */
  closedAt: number | null;
  /** `client`: Klaxon closed it (aborted, not abandoned); `fake`: the safety bound below ended it. */
  closedBy: 'client' | 'fake' | null;
  /** Body bytes written. */
  bytes: number;
}

/**
 * A peer left streaming this long, or this much, is a failed test anyway (the client kept reading):
 * the fake then closes it itself, so a run against unbounded code fails instead of exhausting the machine.
 */
export const ENDLESS_SAFETY = { ms: 30_000, bytes: 384 * 1024 * 1024 };
export type EndlessSafety = typeof ENDLESS_SAFETY;

const FLOOD_CHUNK = Buffer.alloc(64 * 1024, 'x');
const DRIP_CHUNK = Buffer.alloc(64, 'x');

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Answers `status` with a body that never ends (until the client closes it, or the safety bound). */
export function streamEndlessly(res: ServerResponse, status: number, pace: EndlessPace, safety: EndlessSafety = ENDLESS_SAFETY): EndlessAnswer {
  const answer: EndlessAnswer = { pace, status, openedAt: Date.now(), closedAt: null, closedBy: null, bytes: 0 };
  let stopped = false;
  const stop = () => {
    stopped = true;
    res.destroy();
  };
  // On a clock of its own: a client that stops reading must not keep the fake waiting for a drain.
  const deadline = setTimeout(stop, safety.ms);
  res.on('close', () => {
    clearTimeout(deadline);
    answer.closedAt = Date.now();
    answer.closedBy = stopped ? 'fake' : 'client';
  });
  res.writeHead(status, { 'Content-Type': 'text/plain' });
  res.flushHeaders();
  if (pace === 'drip') {
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      res.write(DRIP_CHUNK);
      answer.bytes += DRIP_CHUNK.length;
    }, 100);
    return answer;
  }
  void (async () => {
    while (!res.destroyed) {
      if (answer.bytes >= safety.bytes) return stop();
      answer.bytes += FLOOD_CHUNK.length;
      if (!res.write(FLOOD_CHUNK)) await drainedOrClosed(res);
    }
  })();
  return answer;
}
