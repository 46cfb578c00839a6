import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';

const HISTORIES = path.join(__dirname, '..', 'histories');
const files = readdirSync(HISTORIES).filter((f) => f.endsWith('.json'));

describe('replay of recorded incident histories', () => {
  it('when histories are committed, then each scenario exists for every recorded workflow version', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        ...['v1', 'v2', 'v3', 'v4'].flatMap((v) => [`${v}-incident-lifecycle-closed.json`, `${v}-incident-reopened-run.json`]),
        ...['v3', 'v4'].map((v) => `${v}-incident-from-alerts.json`),
        'v4-incident-batch-resolved-by-sender.json',
      ]),
    );
  });

  it.each(files)('when %s is replayed against the current workflow code, then it is deterministic', async (file) => {
    const history = historyFromJSON(JSON.parse(readFileSync(path.join(HISTORIES, file), 'utf8')));
    const code = readFileSync(process.env.KLAXON_TEST_WORKFLOW_BUNDLE!, 'utf8');
    await expect(Worker.runReplayHistory({ workflowBundle: { code } }, history, `replay-${file}`)).resolves.toBeUndefined();
  });
});
