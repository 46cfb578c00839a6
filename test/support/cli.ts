import { execFile } from 'node:child_process';
import path from 'node:path';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'klaxon.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON, when it is JSON. */
  json?: any;
}

/** Runs the real `klaxon` command as a child process, against the test database unless told not to. */
export function klaxon(args: string[], env: Record<string, string> = {}, opts: { testDatabase?: boolean } = {}): Promise<CliResult> {
  const database = opts.testDatabase === false ? {} : { DATABASE_URL: process.env.KLAXON_TEST_DATABASE_URL! };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...database, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr, json });
      },
    );
  });
}
