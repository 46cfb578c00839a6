import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A throw-away self-signed certificate for localhost and 127.0.0.1. */
export interface TestCert {
  key: string;
  cert: string;
  /** The certificate's file: what APNS_CA_FILE points at to trust it. */
  certFile: string;
  remove(): void;
}

/**
 * Made at test time with the openssl CLI into a temp dir (`selfsigned` is not a dependency and
 * node:crypto cannot issue X.509 certificates), so no private key is ever committed.
 */
export function makeTestCert(): TestCert {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-cert-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'pipe' },
  );
  return {
    key: readFileSync(keyFile, 'utf8'),
    cert: readFileSync(certFile, 'utf8'),
    certFile,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
