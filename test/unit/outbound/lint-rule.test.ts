import { execFile } from 'node:child_process';
import path from 'node:path';

/*
 * docs/security.md, "Outbound requests": in server code (src/, api/, activities/) only the bounded
 * client (src/services/outbound/client.ts) makes HTTP requests. The rules are eslint.config.mjs's;
 * here ESLint's own Node API runs them over samples (they fire where they must, stay quiet where
 * they must) and over the real tree (nothing else calls fetch, http(s).request or an unbounded
 * HTTP library).
 */
const ROOT = path.resolve(__dirname, '../../..');

interface Linted {
  filePath: string;
  messages: Array<{ ruleId: string | null; line: number; message: string }>;
}

function lint(input: { samples?: Array<{ filePath: string; code: string }>; files?: string[] }): Promise<Linted[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [path.join(ROOT, 'bin/run-ts.js'), path.join(__dirname, 'lint-child.ts')],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as Linted[])),
    );
    child.stdin!.end(JSON.stringify(input));
  });
}

/** Each sample's findings as `line ruleId`, by sample. */
async function findings(samples: Record<string, string>, filePath = 'src/services/sample.ts'): Promise<Record<string, string[]>> {
  const names = Object.keys(samples);
  const linted = await lint({ samples: names.map((name) => ({ filePath, code: samples[name] })) });
  return Object.fromEntries(names.map((name, i) => [name, linted[i].messages.map((m) => `${m.line} ${m.ruleId}`)]));
}

describe('the outbound lint rule', () => {
  it('when server code calls fetch, Node’s HTTP request functions, an unbounded HTTP library or web-push’s sendNotification, then the rule fires on each', async () => {
    const found = await findings({
      fetch: "export const go = () => fetch('https://example.com');",
      globalFetch: "export const go = () => globalThis.fetch('https://example.com');",
      httpRequest: "import http from 'node:http';\nexport const go = () => http.request('http://example.com');",
      httpsGet: "import { get } from 'https';\nexport const go = () => get('https://example.com');",
      http2: "import * as h2 from 'node:http2';\nexport const go = () => h2.connect('https://example.com');",
      required: "const https = require('node:https');\nexport const go = () => https.get('https://example.com');",
      imported: "export const go = async () => (await import('node:https')).get('https://example.com');",
      axios: "import axios from 'axios';\nexport const go = () => axios.get('https://example.com');",
      undici: "import { request } from 'undici';\nexport const go = () => request('https://example.com');",
      sendNotification: "import webpush from 'web-push';\nexport const go = (s: never) => webpush.sendNotification(s, 'x');",
      slack: "import { WebClient } from '@slack/web-api';\nexport const go = () => new WebClient('xoxb');",
      googleAuth: "import { JWT } from 'google-auth-library';\nexport const go = () => new JWT({});",
    });
    expect(found).toEqual({
      fetch: ['1 no-restricted-globals'],
      globalFetch: ['1 no-restricted-properties'],
      httpRequest: ['1 no-restricted-imports'],
      httpsGet: ['1 no-restricted-imports'],
      http2: ['1 no-restricted-imports'],
      required: ['1 no-restricted-syntax'],
      imported: ['1 no-restricted-syntax'],
      axios: ['1 no-restricted-imports'],
      undici: ['1 no-restricted-imports'],
      sendNotification: ['2 no-restricted-syntax'],
      slack: ['1 no-restricted-imports'],
      googleAuth: ['1 no-restricted-imports'],
    });
    // api/ and activities/ are server code too.
    expect(Object.values(await findings({ fetch: "export const go = () => fetch('https://example.com');" }, 'api/hooks/sample.ts'))).toEqual([
      ['1 no-restricted-globals'],
    ]);
    expect(Object.values(await findings({ fetch: "export const go = () => fetch('https://example.com');" }, 'activities/sample.ts'))).toEqual([
      ['1 no-restricted-globals'],
    ]);
  });

  it('when the code is the client itself, a type import, a listener, or a test talking to its own server, then the rule stays quiet', async () => {
    const request =
      "import http from 'node:http';\nimport https from 'node:https';\nexport const go = () => [http.request('http://x'), https.request('https://x')];";
    expect(Object.values(await findings({ request }, 'src/services/outbound/client.ts'))).toEqual([[]]);
    expect(Object.values(await findings({ fetch: "export const go = () => fetch('http://127.0.0.1:1/');" }, 'test/integration/sample.test.ts'))).toEqual([[]]);
    expect(
      await findings({
        types:
          "import type { IncomingHttpHeaders } from 'node:http';\nimport type { WebClient } from '@slack/web-api';\nexport type T = [IncomingHttpHeaders, WebClient];",
      }),
    ).toEqual({ types: [] });
    // The listeners may make servers, never requests.
    const listeners = await findings(
      {
        server: "import http from 'node:http';\nexport const make = () => http.createServer();",
        request: "import https from 'node:https';\nexport const go = () => https.request('https://x');",
      },
      'src/stack/services.ts',
    );
    expect(listeners).toEqual({ server: [], request: ['2 no-restricted-syntax'] });
  });

  it('when the whole server tree is linted, then nothing but the bounded client makes an HTTP request', async () => {
    // A canary linted with the tree: the rules are on, so a clean tree means something.
    const canary = { filePath: 'src/services/canary.ts', code: "export const go = () => fetch('https://example.com');" };
    const [linted, ...tree] = await lint({ samples: [canary], files: ['src/**/*.ts', 'api/**/*.ts', 'activities/**/*.ts'] });
    expect(linted.messages.map((m) => m.ruleId)).toEqual(['no-restricted-globals']);
    expect(tree.length).toBeGreaterThan(200);
    expect(tree.filter((r) => r.messages.length).map((r) => ({ file: path.relative(ROOT, r.filePath), messages: r.messages }))).toEqual([]);
  });
});
