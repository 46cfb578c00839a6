/**
 * Lints with the repository's own eslint.config.mjs (ESLint's Node API), in a process of its own:
 * jest's module registry cannot load the ESM config. Reads JSON on stdin, either
 * `{ samples: [{ filePath, code }] }` (sources that exist nowhere) or `{ files: [globs] }`, and
 * prints `[{ filePath, messages: [{ ruleId, line, message }] }]` for files with messages. Only the
 * no-restricted-* rules run (or the `ruleIds` given), untyped (samples are not files of the TypeScript project).
 */
import { ESLint } from 'eslint';

void (async () => {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    samples?: Array<{ filePath: string; code: string }>;
    files?: string[];
    ruleIds?: string[];
  };
  const eslint = new ESLint({
    cwd: process.cwd(),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => (input.ruleIds ? input.ruleIds.includes(ruleId) : ruleId.startsWith('no-restricted-')),
  });
  const results: ESLint.LintResult[] = [];
  for (const sample of input.samples ?? []) results.push(...(await eslint.lintText(sample.code, { filePath: sample.filePath })));
  if (input.files) results.push(...(await eslint.lintFiles(input.files)));
  const out = results.map((r) => ({
    filePath: r.filePath,
    messages: r.messages.map((m) => ({ ruleId: m.ruleId, line: m.line, message: m.message })),
  }));
  process.stdout.write(JSON.stringify(out));
})();
