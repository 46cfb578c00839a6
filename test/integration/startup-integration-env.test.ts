import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { klaxon } from '../support/cli';

// Integrations read their own variables (src/integrations/settings.ts), not src/config.ts: every
// role and `klaxon cluster` check them first (checkIntegrationEnv), so a bad one still stops
// startup before anything runs, naming the variable and never echoing a value.
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-startup-env-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('an integration variable that is wrong at startup', () => {
  it('when a role or the cluster starts with half of a credential group or a malformed value, then it stops at once with the variable named', async () => {
    const halfTwilio = { KLAXON_DATA_DIR: dataDir, TWILIO_AUTH_TOKEN: 'secret-auth-token' };
    for (const command of ['api', 'worker', 'cluster']) {
      const res = await klaxon([command], halfTwilio, { testDatabase: false });
      expect({ command, code: res.code, stderr: res.stderr.trim() }).toEqual({
        command,
        code: 1,
        stderr: 'klaxon: error: invalid configuration: TWILIO_ACCOUNT_SID: required when TWILIO_AUTH_TOKEN is set',
      });
      expect(res.stdout).toBe('');
    }
    const slack = await klaxon(['start'], { KLAXON_DATA_DIR: dataDir, SLACK_API_URL: 'not a url with slack-secret' }, { testDatabase: false });
    expect(slack.stderr).toMatch(/^klaxon: error: invalid configuration: SLACK_API_URL: /);
    expect(slack.stderr).not.toContain('slack-secret');
    // Nothing was started: no embedded Postgres, no generated keys.
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
