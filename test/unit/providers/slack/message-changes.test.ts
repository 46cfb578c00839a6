import { afterSlackFailure, planAttempt, showsPagingNow, threadReply, wantsVia } from '../../../../src/integrations/slack/messages/changes';
import { FEED_RETRY_SCHEDULE_MS as RETRY_SCHEDULE_MS } from '../../../../src/services/incident-feed/delivery-queue';
import { isPermanentSlackError } from '../../../../src/integrations/slack/web-api';

const dana = { type: 'user', id: 'u1', name: 'Dana Smith' };
const system = (name: string) => ({ type: 'system', id: null, name });

describe('Slack thread replies', () => {
  it('when a responder acts (docs/responding.md), then the reply says what, and who; a long note is clipped and markup escaped', () => {
    expect(threadReply({ type: 'incident.note_added', actor: dana, data: { text: 'rolled back <v42>' } }, 'dashboard')).toBe(
      'Note: rolled back &lt;v42&gt; by Dana Smith',
    );
    const long = threadReply({ type: 'incident.note_added', actor: dana, data: { text: 'x'.repeat(2000) } }, null)!;
    expect(long).toBe(`Note: ${'x'.repeat(499)}… by Dana Smith`);
    expect(threadReply({ type: 'incident.snoozed', actor: dana, data: { minutes: 30 } }, null)).toBe('Snoozed for 30 min by Dana Smith');
    expect(
      threadReply(
        {
          type: 'incident.responders_added',
          actor: dana,
          data: {
            targets: [
              { type: 'team', name: 'DBA' },
              { type: 'schedule', name: null },
            ],
          },
        },
        null,
      ),
    ).toBe('Paging DBA, a schedule now by Dana Smith');
    expect(threadReply({ type: 'incident.reassigned', actor: dana, data: { operation: 'reassign' } }, 'api')).toBe(
      'Reassigned; escalation restarted by Dana Smith',
    );
    expect(threadReply({ type: 'incident.merged', actor: dana, data: { merged: { number: 12 } } }, null)).toBe('Merged #12 into this incident by Dana Smith');
    expect(threadReply({ type: 'incident.resolved', actor: dana, data: { operation: 'merge', merged_into: { number: 7 } } }, 'dashboard')).toBe(
      'Resolved: merged into #7 by Dana Smith',
    );
    expect(threadReply({ type: 'incident.triggered', actor: system('snooze'), data: { operation: 'snooze_end' } }, null)).toBe('Snooze ended; paging again');
  });

  it('when a person moves the status, then the reply says what, through which surface, and who', () => {
    expect(threadReply({ type: 'incident.acknowledged', actor: dana, data: {} }, 'slack')).toBe('Acknowledged via Slack by Dana Smith');
    expect(threadReply({ type: 'incident.resolved', actor: dana, data: {} }, 'api')).toBe('Resolved via the API by Dana Smith');
    expect(threadReply({ type: 'incident.investigating', actor: dana, data: {} }, 'dashboard')).toBe('Investigation started via the dashboard by Dana Smith');
    expect(threadReply({ type: 'incident.reopened', actor: dana, data: {} }, 'sms')).toBe('Reopened via SMS by Dana Smith');
    expect(threadReply({ type: 'incident.closed', actor: dana, data: {} }, null)).toBe('Closed by Dana Smith');
    expect(threadReply({ type: 'incident.acknowledged', actor: dana, data: {} }, 'carrier-pigeon')).toBe('Acknowledged by Dana Smith');
  });

  it('when the system acts, then the reply names it only where that says something', () => {
    expect(threadReply({ type: 'incident.resolved', actor: system('ingest'), data: {} }, null)).toBe("Resolved by the alert's sender");
    expect(threadReply({ type: 'incident.closed', actor: system('auto_close'), data: { operation: 'auto_close' } }, null)).toBe('Closed automatically');
    expect(threadReply({ type: 'incident.triggered', actor: system('escalation'), data: { operation: 'ack_timeout' } }, null)).toBe(
      'Acknowledgement timed out; paging again',
    );
  });

  it('when an incident escalates, then the reply names the step (and the repeat)', () => {
    expect(threadReply({ type: 'incident.escalated', actor: system('escalation'), data: { step_number: 2, pass_number: 1 } }, null)).toBe(
      'Escalated to step 2',
    );
    expect(threadReply({ type: 'incident.escalated', actor: system('escalation'), data: { step_number: 1, pass_number: 3 } }, null)).toBe(
      'Escalated to step 1 (repeat 2)',
    );
  });

  it('when the event only refreshes the message (a new incident, a delivered page), then there is no reply', () => {
    expect(threadReply({ type: 'incident.triggered', actor: system('ingest'), data: {} }, null)).toBeNull();
    expect(threadReply({ type: 'page.delivered', actor: system('email'), data: {} }, null)).toBeNull();
  });

  it('when a name holds Slack markup, then the reply escapes it', () => {
    expect(threadReply({ type: 'incident.acknowledged', actor: { ...dana, name: '<!channel> & co' }, data: {} }, null)).toBe(
      'Acknowledged by &lt;!channel&gt; &amp; co',
    );
  });

  it('when the surface matters, then only a person’s status move asks for it', () => {
    expect(wantsVia({ type: 'incident.acknowledged', actor: dana })).toBe(true);
    expect(wantsVia({ type: 'incident.acknowledged', actor: system('ingest') })).toBe(false);
    expect(wantsVia({ type: 'incident.escalated', actor: dana })).toBe(false);
  });

  it('when the incident is no longer waiting for someone, then nobody is shown as paged now', () => {
    expect(showsPagingNow('TRIGGERED')).toBe(true);
    expect(['ACKNOWLEDGED', 'INVESTIGATING', 'RESOLVED', 'CLOSED'].map((s) => showsPagingNow(s as never))).toEqual([false, false, false, false]);
  });
});

describe('what an attempt does', () => {
  it('when the incident has no message in the channel yet, then it is posted, whatever the event (an incident older than the channel setting)', () => {
    expect(planAttempt({ kept: undefined, contentHash: 'a', reply: null, repliedTs: null })).toEqual({ message: 'post', reply: false });
    expect(planAttempt({ kept: undefined, contentHash: 'a', reply: 'Acknowledged', repliedTs: null })).toEqual({ message: 'post', reply: true });
  });

  it('when a message exists, then it is updated only if what it shows changed, and a reply goes once', () => {
    expect(planAttempt({ kept: { contentHash: 'a' }, contentHash: 'b', reply: 'Resolved', repliedTs: null })).toEqual({ message: 'update', reply: true });
    expect(planAttempt({ kept: { contentHash: 'b' }, contentHash: 'b', reply: null, repliedTs: null })).toEqual({ message: 'unchanged', reply: false });
    // A retry after the reply went (its ts recorded) does not reply again.
    expect(planAttempt({ kept: { contentHash: 'b' }, contentHash: 'b', reply: 'Resolved', repliedTs: '1.2' })).toEqual({ message: 'unchanged', reply: false });
    expect(planAttempt({ kept: { contentHash: null }, contentHash: 'b', reply: null, repliedTs: null })).toEqual({ message: 'update', reply: false });
  });

  it('when an attempt fails for good (token revoked, channel gone, bot not in it), then it parks at once; else it retries on the webhook schedule, then parks', () => {
    for (const code of ['channel_not_found', 'invalid_auth', 'not_in_channel', 'is_archived', 'token_revoked']) {
      expect(afterSlackFailure(code, 0, isPermanentSlackError)).toEqual({ retryInMs: null, park: true, permanent: true });
    }
    expect(afterSlackFailure('slack_webapi_request_error', 0, isPermanentSlackError)).toEqual({
      retryInMs: 5_000,
      park: false,
      permanent: false,
    });
    expect(afterSlackFailure('ratelimited', 1, isPermanentSlackError)).toEqual({ retryInMs: 300_000, park: false, permanent: false });
    expect(afterSlackFailure('internal_error', RETRY_SCHEDULE_MS.length, isPermanentSlackError)).toEqual({
      retryInMs: null,
      park: true,
      permanent: false,
    });
  });
});
