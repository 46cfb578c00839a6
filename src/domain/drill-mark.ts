/** What every drill message starts with, so nobody takes it for an incident (import-free: every channel's drill renderer reads it). */
export const DRILL_MARK = '[TEST] Klaxon paging drill';
