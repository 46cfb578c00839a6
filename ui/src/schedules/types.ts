/**
 * The schedule shapes the dashboard reads from /api (docs/api/paging-setup.md). Where the server
 * exports the shape it answers with, it is imported as a type (erased from the bundle).
 */
import type { MemberJson } from '../../../src/services/workspace/members';

/** Layers and their rotation (src/domain/schedule/layers.ts). */
export type { Layer, RotationUnit } from '../../../src/domain/schedule/layers';
/** Restriction windows: when a layer applies (src/domain/schedule/restrictions.ts). */
export type { Restriction, RestrictionType } from '../../../src/domain/schedule/restrictions';
/** A schedule with its layers (POST/PUT/GET /schedules). */
export type { ScheduleJson as Schedule } from '../../../src/services/paging/schedules';
/** GET /schedules/{id}/shifts: a stretch with the same people on call (none: an uncovered gap). */
export type { ShiftJson as Shift } from '../../../src/services/paging/on-call';
export type { ScheduleOverrideJson as ScheduleOverride } from '../../../src/services/paging/schedule-overrides';
import type { MyScheduleOnCall } from '../../../src/services/paging/on-call';

/** Someone on call: /on-call names people by id and email, /shifts adds their name. */
export interface Person {
  id: string;
  email: string;
  name?: string | null;
}

/** GET /schedules/{id}/on-call */
export interface OnCall {
  at: string;
  users: Person[];
  next_handoff: { at: string; users: Person[] } | null;
}

/** GET /on-call/me */
export interface MyOnCall {
  at: string;
  on_call_now: boolean;
  schedules: MyScheduleOnCall[];
}

/** GET /members: the fields read here. */
export type Member = Pick<MemberJson, 'id' | 'email' | 'name'>;
