import path from 'node:path';
import { findGo, goInstall, isExecutable, onPath, TOOLS_BIN_DIR } from './go-install';

export { findGo, isExecutable, TOOLS_BIN_DIR };

/** Pinned: later tags carry a `replace` directive that `go install` refuses (docs/architecture.md, "Temporal"). */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
export const TEMPORAL_CLI_MODULE = `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`;

/** Finds the temporal CLI: TEMPORAL_CLI_PATH, then PATH, then the project's tool folder. */
export function findTemporalCli(explicit?: string): string | undefined {
  if (explicit) {
    if (!isExecutable(explicit)) throw new Error(`TEMPORAL_CLI_PATH=${explicit} is not an executable file`);
    return explicit;
  }
  return onPath('temporal') ?? (isExecutable(path.join(TOOLS_BIN_DIR, 'temporal')) ? path.join(TOOLS_BIN_DIR, 'temporal') : undefined);
}

/** Builds the CLI with `go install` into the tool folder (about 5 minutes on a 2-core machine). */
export function buildTemporalCli(say: (line: string) => void): Promise<string> {
  return goInstall({ label: 'the Temporal CLI', module: TEMPORAL_CLI_MODULE, installAs: 'temporal', expected: 'about 5 minutes' }, say);
}

/**
 * The CLI path: found, or built with Go. Undefined when neither works: the caller falls back
 * to the SDK's own download of the pinned CLI.
 */
export async function ensureTemporalCli(explicit: string | undefined, say: (line: string) => void): Promise<string | undefined> {
  const found = findTemporalCli(explicit);
  if (found) return found;
  if (findGo()) return buildTemporalCli(say);
  say(`No Temporal CLI and no Go: downloading the Temporal CLI ${TEMPORAL_CLI_VERSION} through the Temporal SDK.`);
  return undefined;
}
