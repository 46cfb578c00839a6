/**
 * What a push page carries, shared by the three push channels (apns, fcm, web-push; pure): a title
 * and body, the action category the app shows buttons for, and signed one-use action tokens.
 */
import { DRILL_MARK } from '../domain/drill-mark';
import { pageSubject } from '../domain/paging/messages';
import type { DrillToRender, PageToRender, RenderedPage, TestToRender } from './channel';

/** Form B lists every push channel as `push` (alias `push_notif`); a source that lists it always pushes. */
export const PUSH_FORM_B = { name: 'push', aliases: ['push_notif'], minSeverity: 'INFO' } as const;

export const renderPush = (p: PageToRender): RenderedPage => ({
  subject: pageSubject(p.subject),
  text: `${p.incident.severity} incident #${p.incident.number}`,
  push: { category: 'KLAXON_INCIDENT', data: { incident_id: p.incident.id, acknowledge_token: p.sign('acknowledge'), resolve_token: p.sign('resolve') } },
});

export const renderPushDrill = (d: DrillToRender): RenderedPage => ({
  subject: `${DRILL_MARK}: no incident`,
  text: 'Test page: no incident. Acknowledge to pass the drill.',
  push: { category: 'KLAXON_DRILL', data: { drill_id: d.drillId, acknowledge_token: d.ackToken } },
});

export const renderPushTest = (t: TestToRender): RenderedPage => ({
  subject: t.message.subject,
  text: t.message.text,
  push: { category: 'KLAXON_TEST', data: t.data },
});
