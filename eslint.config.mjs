// Lint: the rules docs/architecture.md asks for; formatting is Prettier's (`npm run format`, checked by `npm run lint`).
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';
import redos from 'eslint-plugin-redos';

const NODE_BUILTINS = ['fs', 'path', 'crypto', 'http', 'https', 'net', 'os', 'child_process', 'stream', 'events', 'util', 'timers', 'worker_threads'];

/**
 * One bounded outbound client (docs/security.md, "Outbound requests"): in server code only
 * src/services/outbound/client.ts makes HTTP requests. Everything else uses it, or gives its
 * fetch-shaped adapter to a library (openid-client, @slack/web-api, google-auth-library).
 */
export const OUTBOUND_CLIENT = 'src/services/outbound/client.ts';
const OUTBOUND = 'outbound HTTP goes through the bounded client (src/services/outbound): a deadline, a byte cap, no redirects, the SSRF guard';
/** HTTP client libraries that read answers without a cap. */
const UNBOUNDED_HTTP_LIBRARIES = [
  'undici',
  'node-fetch',
  'cross-fetch',
  'axios',
  'got',
  'gaxios',
  'superagent',
  'needle',
  'request',
  'ky',
  'follow-redirects',
  'http-proxy-agent',
  'https-proxy-agent',
  'ws',
];
const NODE_HTTP = ['node:http', 'http', 'node:https', 'https', 'node:http2', 'http2'];
/** The libraries that fetch unbounded unless given the client's fetch: each is made in one place that gives it. */
const FETCHING_LIBRARIES = {
  '@slack/web-api': 'make Slack clients with slackClient() (src/integrations/slack/web-api.ts)',
  'google-auth-library': "FCM's token client is made in src/integrations/fcm/sender.ts",
};
/**
 * no-restricted-imports for server code: unbounded HTTP libraries, Node's HTTP modules (types
 * allowed), and the fetching libraries (types allowed); `except` lifts names for one file.
 */
const outboundImports = (except = []) => [
  'error',
  {
    paths: [
      ...UNBOUNDED_HTTP_LIBRARIES.map((name) => ({ name, message: OUTBOUND })),
      ...NODE_HTTP.map((name) => ({ name, allowTypeImports: true, message: `${OUTBOUND}; listeners are made in src/stack/services.ts` })),
      ...Object.entries(FETCHING_LIBRARIES).map(([name, where]) => ({ name, allowTypeImports: true, message: `${OUTBOUND}: ${where}` })),
    ].filter((p) => !except.includes(p.name)),
    patterns: [{ group: UNBOUNDED_HTTP_LIBRARIES.map((name) => `${name}/*`), message: OUTBOUND }],
  },
];
const HTTP_MODULE = '/^(node:)?https?2?$/';
const outboundSyntax = [
  {
    selector: "MemberExpression[property.name='sendNotification']",
    message: `${OUTBOUND}: web-push's sendNotification reads the answer without limit; build the request with generateRequestDetails()`,
  },
  // Node's HTTP modules reached around the import rule.
  { selector: `CallExpression[callee.name='require'] > Literal.arguments[value=${HTTP_MODULE}]`, message: OUTBOUND },
  { selector: `ImportExpression > Literal.source[value=${HTTP_MODULE}]`, message: OUTBOUND },
];

/** The modules at src/integrations/'s root every layer may import: the registry and the shared contracts. */
const INTEGRATIONS_ROOT_MODULES = [
  'registry',
  'wiring',
  'types',
  'channel',
  'push',
  'failures',
  'provider-call',
  'link-page',
  'import-sources',
  'intake-answer',
];
/** An import of one integration's folder: `…/integrations/<name>/…`, or `…/integrations/<name>` that is no root module. */
const INTEGRATION_BY_NAME = `(^|/)integrations/([^/]+/|(?!(${INTEGRATIONS_ROOT_MODULES.join('|')})$)[^/]+$)`;

export default tseslint.config(
  // bin/*.js is linted (regexes only): it is what `npm start` and `npm test` run first.
  { ignores: ['node_modules/**', '**/dist/**', '.klaxon/**', '.tools/**', 'coverage/**', '**/*.js', '!bin/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // Temporal's deterministic sandbox (style.md rule 1): no I/O, no Node built-ins, no clients.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', ...NODE_BUILTINS], message: 'workflow code must be deterministic: no Node built-ins' },
            {
              group: [
                '@mikro-orm/*',
                'pg',
                'koa',
                '@koa/*',
                'twilio',
                '@sendgrid/*',
                '@parse/node-apn',
                'pino',
                '@temporalio/client',
                '@temporalio/worker',
                '@temporalio/activity',
              ],
              message: 'workflow code does no I/O: call an activity',
            },
            {
              group: ['../../src/services/*', '../../src/db/*', '../../activities/*', '../activities/*', '../src/services/*'],
              message: 'only src/domain and activity types may be imported',
              allowTypeImports: true,
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'use sleep() from @temporalio/workflow' },
        { name: 'setInterval', message: 'use workflow timers' },
      ],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'use uuid4() or random from @temporalio/workflow' }],
    },
  },
  {
    // Server code: no HTTP request but through the bounded client. An integration's testing/
    // folder (its wire fake, a server for tests) is not server code.
    files: ['src/**/*.ts', 'api/**/*.ts', 'activities/**/*.ts'],
    ignores: ['src/integrations/**/testing/**'],
    rules: {
      'no-restricted-imports': outboundImports(),
      'no-restricted-globals': ['error', ...['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest'].map((name) => ({ name, message: OUTBOUND }))],
      'no-restricted-properties': ['error', ...['globalThis', 'global', 'window', 'self'].map((object) => ({ object, property: 'fetch', message: OUTBOUND }))],
      'no-restricted-syntax': ['error', ...outboundSyntax],
    },
  },
  {
    // The listeners: servers, never requests.
    files: ['src/stack/services.ts'],
    rules: {
      'no-restricted-imports': outboundImports(['node:http', 'node:https']),
      'no-restricted-syntax': [
        'error',
        ...outboundSyntax,
        { selector: 'MemberExpression[object.name=/^https?$/][property.name=/^(request|get|Agent|globalAgent)$/]', message: OUTBOUND },
      ],
    },
  },
  {
    // The core is blind to integrations (docs/architecture.md, "Integrations"): it reaches them
    // through the registry and the shared contracts at src/integrations/'s root, never a folder
    // by name, so adding an integration is its folder and a registry line.
    files: ['src/**/*.ts', 'api/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts'],
    ignores: ['src/integrations/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: INTEGRATION_BY_NAME, message: 'the core reaches an integration through src/integrations/registry.ts, never its folder' }] },
      ],
    },
  },
  // The two libraries, where they are given the client's fetch.
  { files: ['src/integrations/slack/web-api.ts'], rules: { 'no-restricted-imports': outboundImports(['@slack/web-api']) } },
  { files: ['src/integrations/fcm/sender.ts'], rules: { 'no-restricted-imports': outboundImports(['google-auth-library']) } },
  {
    // The one bounded client itself.
    files: [OUTBOUND_CLIENT],
    rules: { 'no-restricted-imports': outboundImports(['node:http', 'node:https']), 'no-restricted-syntax': 'off' },
  },
  {
    // The dashboard's components and the Vite config: parsed, not type-checked, for the rules below.
    files: ['**/*.tsx', '**/*.mts'],
    languageOptions: { parser: tseslint.parser },
  },
  {
    // Every regular expression runs in linear time: one request body must never hold the
    // event loop that serves every tenant (issue 21, a Datadog regex took minutes).
    files: ['**/*.ts', '**/*.tsx', '**/*.mts', 'bin/*.js'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    // eslint-plugin-regexp's analysis finds only attacks that repeat one character; recheck (through
    // eslint-plugin-redos) also finds those that repeat a longer string, such as
    // `pool.*(ended|destroyed)` on "poolpool…" (docs/security.md, "Hostile input"). Code that sees
    // input only: tests match their own outputs.
    files: ['src/**/*.ts', 'api/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts', 'ui/src/**/*.ts', 'ui/src/**/*.tsx', 'bin/*.js'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'src/integrations/**/testing/**'],
    plugins: { redos },
    rules: { 'redos/no-vulnerable': 'error' },
  },
);
