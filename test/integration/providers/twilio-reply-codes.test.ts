import { randomUUID } from 'node:crypto';
import { nextReplyCode } from '../../../src/services/paging/reply-codes';
import { openOrm, type MikroORM } from '../../../src/db/orm';
import { knexOf } from '../../../src/db/knex';
import { phoneNumber } from '../../support/paging';

let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 20);
});
afterAll(() => orm.close());

const k = () => knexOf(orm);

/** What sendPage does with a code: the SMS's notification row carries it. */
async function paged(target: string, incidentId: string): Promise<number> {
  const code = await nextReplyCode(k(), target, incidentId);
  const now = new Date();
  await k()('notifications').insert({
    id: randomUUID(),
    organization_id: randomUUID(),
    incident_id: incidentId,
    channel: 'sms',
    target,
    status: 'queued',
    reply_code: code,
    created_at: now,
    updated_at: now,
  });
  return code;
}

describe('SMS reply codes', () => {
  it('when new incidents page one number, then each takes the next code, and an incident paging it again keeps its own', async () => {
    const phone = phoneNumber();
    const [a, b] = [randomUUID(), randomUUID()];
    expect(await paged(phone, a)).toBe(1);
    expect(await paged(phone, b)).toBe(2);
    expect(await paged(phone, a)).toBe(1);
    expect(await paged(phoneNumber(), b)).toBe(1); // another number counts on its own
  });

  it('when a number has been given code 99, then the next incident takes 1 again', async () => {
    const phone = phoneNumber();
    await k()('reply_code_cursors').insert({ target: phone, last_code: 98 });
    expect(await paged(phone, randomUUID())).toBe(99);
    expect(await paged(phone, randomUUID())).toBe(1);
  });

  it('when 40 incidents page one number at once, then they take 40 different codes', async () => {
    const phone = phoneNumber();
    const codes = await Promise.all(Array.from({ length: 40 }, () => paged(phone, randomUUID())));
    expect(new Set(codes).size).toBe(40);
    expect([...codes].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });
});
