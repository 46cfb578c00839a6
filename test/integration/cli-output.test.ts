import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../src/db/knex';
import { openOrm } from '../../src/db/orm';
import { klaxon } from '../support/cli';

// Every command's output reaches the end of its pipe before the process exits (src/cli/exit.ts):
// a large --json answer was cut off at a few hundred kilobytes when the CLI exited with writes
// still queued for a reader slower than the process.
let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
});
afterAll(() => orm?.close());

/** 150 dev-inbox messages of about 5 KB each (body and payload), newest first. */
async function largeInbox() {
  const body = 'x'.repeat(2_500);
  const rows = Array.from({ length: 150 }, (_, i) => ({
    id: randomUUID(),
    channel: 'email',
    to: `person-${i}@example.test`,
    subject: `Page ${i}`,
    body,
    payload: JSON.stringify({ text: body }),
    created_at: new Date(Date.now() - i * 1000),
  }));
  await knexOf(orm)('dev_deliveries').insert(rows);
  return rows;
}

describe('klaxon output through a pipe', () => {
  it('when `inbox list --json` prints 150 large messages (about 780 KB) into a pipe, then all of it arrives as one JSON object', async () => {
    const rows = await largeInbox();
    const res = await klaxon(['inbox', 'list', '--limit', '150', '--json']);
    expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
    expect(res.stdout.length).toBeGreaterThan(700_000);
    expect(res.stdout.endsWith('}\n')).toBe(true);
    expect(res.json.messages.map((m: { to: string }) => m.to)).toEqual(rows.map((r) => r.to));
  });

  it('when the reader closes the pipe early (`| head`), then the command ends quietly with 0, not an EPIPE stack trace', async () => {
    await largeInbox();
    const child = spawn(process.execPath, [path.resolve(__dirname, '..', '..', 'bin', 'klaxon.js'), 'inbox', 'list', '--limit', '150', '--json'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: process.env.KLAXON_TEST_DATABASE_URL! },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});

describe('klaxon with an old variable name', () => {
  it('when LEGACY_API_URL is set, then the command warns once on stderr naming API_KEY_API_URL, and stdout stays its JSON answer', async () => {
    const res = await klaxon(['inbox', 'list', '--limit', '1', '--json'], { LEGACY_API_URL: 'https://keys.example.com' });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('klaxon: warning: LEGACY_API_URL is an old name: set API_KEY_API_URL instead (LEGACY_API_URL is still read for now)\n');
    expect(res.json).toHaveProperty('messages');
  });
});
