/** On-call schedules: layer validation and who is on call when (pure, no I/O). */
export { ScheduleInputError } from './errors';
export { LIMITS, ROTATION_UNITS, parseLayers, type Layer, type Restriction, type RotationUnit } from './layers';
export { zoneOf } from './local-time';
export { onCallAt, shiftsBetween, type OnCallSpan, type Override, type ScheduleSpec } from './on-call';
