import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const RUN_TS = path.join(__dirname, '..', '..', 'bin', 'run-ts.js');

/**
 * Starts `file` (a TypeScript file beside the caller: pass `path.join(__dirname, …)`) in a Node
 * process of its own, through bin/run-ts.js, with an IPC channel. Its output goes to the bench's
 * terminal; messages use the advanced serialization, so Maps and NaN arrive as sent.
 */
export function forkTs(file: string): ChildProcess {
  return fork(RUN_TS, [file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
}
