import { iso, isoOrNull } from '../../db/timestamps';

/** A contact_methods row as the paging services read it, and its JSON. */

export interface ContactRow {
  id: string;
  organization_id: string;
  user_id: string;
  type: string;
  address: string;
  label: string | null;
  disabled_at: Date | string | null;
  disabled_reason: string | null;
  verified_at: Date | string | null;
  /** `import`: an import brought it in (docs/importers.md); null: made in Klaxon. */
  source: string | null;
  created_at: Date | string;
}

/**
 * A contact method as the CLI and the dashboard show it; `verified_at` null: a phone number
 * awaiting its code, never paged; `source` "import": brought in by an import, null otherwise.
 */
export const contactJson = (r: ContactRow) => ({
  id: r.id,
  organization_id: r.organization_id,
  user_id: r.user_id,
  type: r.type,
  address: r.address,
  label: r.label,
  disabled_at: isoOrNull(r.disabled_at),
  disabled_reason: r.disabled_reason,
  verified_at: isoOrNull(r.verified_at),
  source: r.source ?? null,
  created_at: iso(r.created_at),
});
export type ContactMethodJson = ReturnType<typeof contactJson>;

export const CONTACT_COLUMNS = [
  'id',
  'organization_id',
  'user_id',
  'type',
  'address',
  'label',
  'disabled_at',
  'disabled_reason',
  'verified_at',
  'source',
  'created_at',
];
