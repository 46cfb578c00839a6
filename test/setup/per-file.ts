import { createLogger } from '../../src/logger';
import { installTemporalRuntime } from '../../src/temporal/worker';

// The Temporal runtime is per process and jest reuses worker processes across files: the
// first file installs it (warnings and errors only), later ones find it installed.
try {
  installTemporalRuntime(createLogger('warn', process.stderr));
} catch {
  // already installed in this worker process
}
