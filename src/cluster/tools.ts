import path from 'node:path';
import { goInstall, isExecutable, onPath, TOOLS_BIN_DIR, type GoTool } from '../temporal/go-install';

/** The server version of the dev CLI we pin (src/temporal/cli-binary.ts), and of docker-compose.yml's images. */
export const TEMPORAL_SERVER_VERSION = 'v1.29.1';

export const TEMPORAL_SERVER: GoTool = {
  label: 'the Temporal server',
  module: `go.temporal.io/server/cmd/server@${TEMPORAL_SERVER_VERSION}`,
  installAs: 'temporal-server',
  expected: 'about 2–5 minutes',
};

export const TEMPORAL_SQL_TOOL: GoTool = {
  label: "the Temporal server's schema tool",
  module: `go.temporal.io/server/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`,
  installAs: 'temporal-sql-tool',
  expected: 'about 2 minutes',
};

/** A tool on PATH under its usual name (the Temporal images install both so), else in .tools/bin. */
export function findTool(tool: GoTool): string | undefined {
  const cached = path.join(TOOLS_BIN_DIR, tool.installAs);
  return onPath(tool.installAs) ?? (isExecutable(cached) ? cached : undefined);
}

/** The server and its schema tool: found, or built once with Go (one after the other: each takes both cores). */
export async function ensureClusterTools(say: (line: string) => void): Promise<{ server: string; sqlTool: string }> {
  const server = findTool(TEMPORAL_SERVER) ?? (await goInstall(TEMPORAL_SERVER, say));
  const sqlTool = findTool(TEMPORAL_SQL_TOOL) ?? (await goInstall(TEMPORAL_SQL_TOOL, say));
  return { server, sqlTool };
}
