import { createSource } from '../../../src/services/ingest/sources';
import { createService, createTeam } from '../../../src/services/workspace';
import { trigger } from '../../support/paging';
import { dashboardFixture, signUpAndLogIn, SESSION_COOKIE, type DashboardSession } from '../../support/dashboard';

const fx = dashboardFixture();

/** An open event stream: the events read so far, and a wait for one that matches. */
async function openStream(session: DashboardSession) {
  const abort = new AbortController();
  const res = await fetch(`${fx.stack.urls.app}/api/events`, { headers: { Cookie: `${SESSION_COOKIE}=${session.cookie}` }, signal: abort.signal });
  const events: Array<{ event: string; data: any }> = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    res,
    events,
    async waitFor(match: (e: { event: string; data: any }) => boolean, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        const found = events.find(match);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no matching event in ${ms} ms; saw ${JSON.stringify(events)}`);
    },
    async close() {
      abort.abort();
      await pump;
    },
  };
}

async function workspaceWithSource() {
  const session = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
  const team = await createTeam(fx.stack.orm, { organizationId: session.organizationId, name: 'Ops' });
  const service = await createService(fx.stack.orm, { organizationId: session.organizationId, teamId: team.id, name: 'API' });
  const source = await createSource(fx.stack.orm, {
    organizationId: session.organizationId,
    serviceId: service.id,
    name: 'alerts',
    ingestBaseUrl: fx.stack.urls.ingest,
  });
  return { session, ingestUrl: source.ingest_url };
}

describe('GET /api/events (Server-Sent Events)', () => {
  it('when an incident opens and is acknowledged, then the workspace’s open stream hears both, and another workspace’s stream hears neither', async () => {
    const mine = await workspaceWithSource();
    const other = await workspaceWithSource();
    const stream = await openStream(mine.session);
    const otherStream = await openStream(other.session);
    try {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      // The first subscriber opens the LISTEN connection: give it a moment before writing.
      await new Promise((r) => setTimeout(r, 500));
      const id = await trigger(mine.ingestUrl, 'Checkout is down');
      const opened = await stream.waitFor((e) => e.event === 'incident' && e.data.id === id);
      expect(opened.data).toEqual({ type: 'incident', id, number: 1, status: 'TRIGGERED' });

      const acked = await fx.api('POST', `/incidents/${id}/acknowledge`, { session: mine.session });
      expect(acked.status).toBe(200);
      await stream.waitFor((e) => e.event === 'incident' && e.data.id === id && e.data.status === 'ACKNOWLEDGED');
      expect(otherStream.events.filter((e) => e.event === 'incident')).toEqual([]);
    } finally {
      await stream.close();
      await otherStream.close();
    }
  });

  it('when a note is added to an incident, then the open stream hears about the incident, so its timeline refreshes (docs/responding.md)', async () => {
    const mine = await workspaceWithSource();
    const id = await trigger(mine.ingestUrl, 'Queue backlog');
    const stream = await openStream(mine.session);
    try {
      await new Promise((r) => setTimeout(r, 500));
      expect((await fx.api('POST', `/incidents/${id}/notes`, { session: mine.session, body: { text: 'looking' } })).status).toBe(201);
      const heard = await stream.waitFor((e) => e.event === 'incident' && e.data.id === id);
      expect(heard.data).toMatchObject({ id, status: 'TRIGGERED' });
    } finally {
      await stream.close();
    }
  });

  it('when the stream is asked for without a session, then it is 401 in the dashboard envelope', async () => {
    const res = await fetch(`${fx.stack.urls.app}/api/events`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ success: false, code: 'unauthorized' });
  });
});
