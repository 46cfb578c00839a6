/**
 * How every `klaxon` command ends. `process.exit` does not wait for stdout: writes to a pipe
 * are asynchronous, so a large `--json` answer was cut off wherever the reader had got to. Here
 * the exit waits until stdout and stderr have handed everything to the operating system.
 */

/** Resolves once everything written to the stream so far has been flushed (write callbacks run in order), or the stream is gone. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable) return Promise.resolve();
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/** Exits with `code` once stdout and stderr are flushed. */
export async function exitWhenFlushed(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/**
 * A reader that went away (`klaxon … | head`) closes the pipe: the rest of the output has nowhere
 * to go, which is not the command failing. Exit quietly instead of with an EPIPE stack trace.
 */
export function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
}
