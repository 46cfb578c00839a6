import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import type { Page, TimelineEntry } from '../api/types';
import { allowedOperations } from './status';
import { Timeline } from './Timeline';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = (time_zone: string | null) => ({ 'GET /profile': ok({ id: 'u1', email: 'ada@example.test', name: 'Ada', role: 'MEMBER', time_zone }) });

const entry = (over: Partial<TimelineEntry>): TimelineEntry => ({
  seq: 1,
  type: 'status_change',
  at: '2026-11-24T03:00:00.000Z',
  message: 'Incident opened',
  from_status: null,
  to_status: 'TRIGGERED',
  actor: { type: 'system', id: null, email: null, via: 'ingest' },
  data: null,
  ...over,
});

describe('Timeline', () => {
  it('when a paging decision paged one person and skipped another, then both are shown with the channel and the reason', () => {
    const entries = [
      entry({ seq: 1 }),
      entry({
        seq: 2,
        type: 'paging_decision',
        message: 'Step 1 of policy Pager: paging ada@example.test',
        data: {
          paged: [
            {
              email: 'ada@example.test',
              pages: [
                { channel: 'sms', delay_seconds: 0 },
                { channel: 'voice', delay_seconds: 120 },
              ],
            },
          ],
          skipped: [{ email: 'bob@example.test', reason: 'no_usable_contact_method' }],
        },
      }),
      entry({
        seq: 3,
        type: 'status_change',
        message: 'Acknowledged',
        to_status: 'ACKNOWLEDGED',
        actor: { type: 'user', id: 'u1', email: 'ada@example.test', via: 'sms' },
      }),
    ];
    const pages: Page[] = [
      {
        id: 'p1',
        at: '2026-11-24T03:00:01.000Z',
        channel: 'sms',
        to: '+15550100',
        user: { id: 'u1', email: 'ada@example.test' },
        status: 'delivered',
        error: null,
        fallback_reason: null,
        escalation_step: 0,
        provider: 'twilio',
      },
      {
        id: 'p2',
        at: '2026-11-24T03:00:02.000Z',
        channel: 'email',
        to: 'bob@example.test',
        user: null,
        status: 'failed',
        error: 'mailbox unavailable',
        fallback_reason: 'the FREE plan pages by email only; sent by email instead',
        escalation_step: 0,
        provider: 'sendgrid',
      },
    ];
    fakeApi(me(null));
    renderWithApp(<Timeline entries={entries} pages={pages} />);

    expect(screen.getByText('Paged ada@example.test: sms, voice after 120s')).toBeTruthy();
    expect(screen.getByText('Not paged bob@example.test: no usable contact method')).toBeTruthy();
    expect(screen.getByText(/ada@example.test via sms/)).toBeTruthy();
    const sent = screen.getByLabelText('Pages sent');
    expect(within(sent).getByText('delivered')).toBeTruthy();
    expect(within(sent).getByText('failed')).toBeTruthy();
    expect(within(sent).getByText('mailbox unavailable')).toBeTruthy();
    expect(within(sent).getByText(/pages by email only/)).toBeTruthy();
  });
});

describe('Timeline times and notes', () => {
  it('when a maintenance entry holds a raw ISO instant, then it shows as a time in My profile’s zone, and each entry’s time is relative with the exact time on hover', async () => {
    fakeApi(me('Europe/Berlin'));
    const entries = [
      entry({
        seq: 1,
        type: 'paging_decision',
        message: 'Not paged: maintenance window “deploy” until 2026-11-24T05:30:00.000Z; pages then if still triggered.',
      }),
    ];
    renderWithApp(<Timeline entries={entries} pages={[]} />);
    await screen.findByText('Not paged: maintenance window “deploy” until Nov 24, 2026, 06:30:00 GMT+1; pages then if still triggered.');
    expect(screen.queryByText(/2026-11-24T05:30/)).toBeNull();
    const when = document.querySelector('time[datetime="2026-11-24T03:00:00.000Z"]')!;
    expect(when.getAttribute('title')).toBe('Nov 24, 2026, 04:00:00 GMT+1');
    expect(when.textContent).toMatch(/ ago$/);
  });

  it('when a note holds line breaks, a link and HTML, then it is shown as written: the link clickable, the HTML as text', async () => {
    fakeApi(me(null));
    const text = 'Rolled back.\nSee https://status.example.test/incident/42.\n<img src=x onerror=alert(1)> javascript:alert(1)';
    renderWithApp(
      <Timeline
        entries={[entry({ seq: 1, type: 'note', message: text, actor: { type: 'user', id: 'u1', email: 'ada@example.test', via: 'dashboard' } })]}
        pages={[]}
      />,
    );
    const link = await screen.findByRole('link', { name: 'https://status.example.test/incident/42' });
    expect(link.getAttribute('href')).toBe('https://status.example.test/incident/42');
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByText(/<img src=x onerror=alert\(1\)>/).textContent).toContain('Rolled back.\nSee ');
  });
});

describe('allowedOperations', () => {
  it('when an incident is in each state, then only the moves the state machine allows are offered', () => {
    expect(allowedOperations('TRIGGERED')).toEqual(['acknowledge', 'investigate', 'resolve']);
    expect(allowedOperations('ACKNOWLEDGED')).toEqual(['investigate', 'resolve']);
    expect(allowedOperations('INVESTIGATING')).toEqual(['resolve']);
    expect(allowedOperations('RESOLVED')).toEqual(['close', 'reopen']);
    expect(allowedOperations('CLOSED')).toEqual(['reopen']);
  });
});
