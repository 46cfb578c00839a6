/** On-call schedules: layer validation and who is on call when (pure, no I/O). */
export { ScheduleInputError } from './errors';
export { LIMITS, ROTATION_UNITS, currentLayers, parseLayers, type Layer, type RotationUnit, type StoredLayer } from './layers';
export { RESTRICTION_TYPES, type LegacyWindow, type Restriction, type RestrictionType } from './restrictions';
export { zoneOf } from './local-time';
export { onCallAt, shiftsBetween, type OnCallSpan, type Override, type ScheduleSpec } from './on-call';
