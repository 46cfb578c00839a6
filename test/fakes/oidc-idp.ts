import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { makeTestCert, type TestCert } from '../../src/integrations/testing/tls-cert';

/** A real OpenID provider (oidc-provider) over HTTPS, in a child process (test/fakes/oidc-idp-server.mjs). */
export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The certificate it serves: Klaxon trusts it through SSO_CA_FILE, the test's browser through `ca`. */
  cert: TestCert;
  stop(): Promise<void>;
}

/** The certificate the IdP will serve: made first, since Klaxon's configuration (SSO_CA_FILE) names it before the IdP starts. */
export const makeIdpCert = (): TestCert => makeTestCert();

/** Starts the provider with one client whose redirect URI is Klaxon's OIDC callback. */
export async function startTestIdp(redirectUri: string, cert: TestCert): Promise<TestIdp> {
  const clientId = 'klaxon-test-client';
  const clientSecret = 'klaxon-test-client-secret-0123456789';
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, 'oidc-idp-server.mjs')], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      IDP_CERT_FILE: cert.certFile,
      IDP_KEY_FILE: cert.certFile.replace(/cert\.pem$/, 'key.pem'),
      IDP_CLIENT_ID: clientId,
      IDP_CLIENT_SECRET: clientSecret,
      IDP_REDIRECT_URI: redirectUri,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^listening (\S+)$/m.exec(out);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`the test IdP exited (${code}): ${stderr}`)));
  });
  return {
    issuer,
    clientId,
    clientSecret,
    cert,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.on('exit', resolve));
        child.kill();
        await exited;
      }
      cert.remove();
    },
  };
}
