/** Reads the native-webhook fixtures (test/fixtures/native) the way the ingestion endpoint will receive them. */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { readBody } from '../../../src/domain/ingest/body';
import type { IngestHeaders } from '../../../src/domain/ingest/types';

/** The native-webhook fixtures, copied into the repository (test/fixtures/native). */
export const FIXTURES_DIR = path.resolve(__dirname, '../../fixtures/native');

/** One fixture request: parsed body, lower-cased headers, raw text. */
export interface FixtureRequest {
  raw: string;
  body: unknown;
  headers: IngestHeaders;
}

/** Every request-body fixture, as `<sender dir>/<file>.json` (header files excluded). */
export function listFixtures(): string[] {
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(path.join(FIXTURES_DIR, d.name))
        .filter((f) => f.endsWith('.json') && !f.endsWith('.headers.json'))
        .map((f) => `${d.name}/${f}`),
    )
    .sort();
}

/** The fixture's body and headers; without a headers file, `content-type: application/json` as the README says. */
export function loadFixture(name: string): FixtureRequest {
  const raw = readFileSync(path.join(FIXTURES_DIR, name), 'utf8');
  const headersFile = path.join(FIXTURES_DIR, name.replace(/\.json$/, '.headers.json'));
  const given = existsSync(headersFile) ? (JSON.parse(readFileSync(headersFile, 'utf8')) as Record<string, string>) : { 'Content-Type': 'application/json' };
  return { raw, body: readBody(raw), headers: lowerCaseKeys(given) };
}

/** A fixture's body as an object, for tests that derive variants from it. */
export function fixtureBody(name: string): Record<string, unknown> {
  return loadFixture(name).body as Record<string, unknown>;
}

/** Header names lower-cased, as the HTTP layer hands them over. */
export function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
