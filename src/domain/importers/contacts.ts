/**
 * Contact addresses of an import in Klaxon's form (docs/importers.md, "Contact methods"): phone
 * numbers in E.164, emails lower-cased, checked by the channel table as any contact method is.
 * Pure.
 */
import { normaliseAddress } from '../channels';
import type { PlannedContactMethod } from './plan';

/** A number in E.164 from what the source keeps: PagerDuty's country code and national number, or Opsgenie's `1-5551234567`. */
export function phoneOf(countryCode: number | null | undefined, number: string): string {
  const digits = number.replace(/[\s().-]/g, '');
  if (digits.startsWith('+')) return digits;
  return countryCode === null || countryCode === undefined ? `+${digits}` : `+${countryCode}${digits.replace(/^0+/, '')}`;
}

/** The address checked for its channel, or why it cannot be a Klaxon contact method (the value itself is never echoed). */
export function contactAddress(type: PlannedContactMethod['type'], raw: string): { ok: true; address: string } | { ok: false; why: string } {
  const result = normaliseAddress(type, raw);
  return result.ok ? { ok: true, address: result.address } : { ok: false, why: `its address ${result.message}` };
}

/** A minutes delay of the source as a rule delay, or why not (Klaxon rules fire within a day). */
export function ruleDelayOf(minutes: number | null | undefined): { ok: true; seconds: number } | { ok: false; why: string } {
  const m = minutes ?? 0;
  if (!Number.isInteger(m) || m < 0 || m > 1440) return { ok: false, why: `it waits ${m} minutes: Klaxon rules fire within a day (0 to 1440 minutes)` };
  return { ok: true, seconds: m * 60 };
}
