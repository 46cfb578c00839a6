import { execFile } from 'node:child_process';
import path from 'node:path';

/*
 * docs/architecture.md, "Integrations": the core (src/ outside src/integrations, api/,
 * activities/, workflows/) reaches an integration only through the registry
 * (src/integrations/registry.ts) and the contracts (src/integrations/types.ts), never a folder
 * of src/integrations/ by name; so adding an integration is its folder and one registry line.
 * The rule is eslint.config.mjs's; ESLint's Node API runs it over samples and the real tree.
 */
const ROOT = path.resolve(__dirname, '../../..');
const RULE = '@typescript-eslint/no-restricted-imports';

interface Linted {
  filePath: string;
  messages: Array<{ ruleId: string | null; line: number; message: string }>;
}

function lint(request: { samples?: Array<{ filePath: string; code: string }>; files?: string[] }): Promise<Linted[]> {
  const input = { ...request, ruleIds: [RULE] };
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [path.join(ROOT, 'bin/run-ts.js'), path.join(__dirname, '../outbound/lint-child.ts')],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as Linted[])),
    );
    child.stdin!.end(JSON.stringify(input));
  });
}

const boundary = (linted: Linted) => linted.messages.filter((m) => m.ruleId === RULE).map((m) => m.line);

describe('the integration boundary lint rule', () => {
  it('when core code imports an integration folder by name, as a value or a type, then the rule fires', async () => {
    const samples = [
      { filePath: 'src/services/sample.ts', code: "import { twilio } from '../integrations/twilio';\nexport const t = twilio;" },
      {
        filePath: 'api/dashboard/routes/sample.ts',
        code: "import type { SlackConfig } from '../../../src/integrations/slack/config';\nexport type T = SlackConfig;",
      },
      { filePath: 'activities/sample.ts', code: "export { sendPushover } from '../src/integrations/pushover/sender';" },
      { filePath: 'src/domain/sample.ts', code: "export * from '../integrations/discord/embed';" },
    ];
    const linted = await lint({ samples });
    expect(linted.map(boundary)).toEqual([[1], [1], [1], [1]]);
  });

  it('when core code imports the registry or the contracts, or an integration imports its own files and the core, then the rule stays quiet', async () => {
    const samples = [
      {
        filePath: 'src/services/sample.ts',
        code: "import { integrations } from '../integrations/registry';\nimport type { ProviderModule } from '../integrations/types';\nexport const x: ProviderModule[] = [integrations];",
      },
      {
        filePath: 'src/integrations/pushover/sample.ts',
        code: "import { send } from './sender';\nimport { knexOf } from '../../db/knex';\nexport const x = [send, knexOf];",
      },
    ];
    const linted = await lint({ samples });
    expect(linted.map(boundary)).toEqual([[], []]);
  });

  it('when the whole core is linted, then no file imports an integration by name', async () => {
    // A canary linted with the tree: the rule is on, so a clean tree means something.
    const canary = { filePath: 'src/services/canary.ts', code: "import { slack } from '../integrations/slack';\nexport const s = slack;" };
    const [linted, ...tree] = await lint({ samples: [canary], files: ['src/**/*.ts', 'api/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts'] });
    expect(boundary(linted)).toEqual([1]);
    expect(tree.length).toBeGreaterThan(200);
    const offenders = tree.filter((r) => boundary(r).length > 0).map((r) => path.relative(ROOT, r.filePath));
    expect(offenders).toEqual([]);
  });
});
