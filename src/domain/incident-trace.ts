/** What the dashboard reads of an incident's story (GET /api/incidents/{id}): shared by the server and ui/. */

export interface TimelineEntryJson {
  seq: number;
  type: string;
  at: string;
  message: string;
  from_status: string | null;
  to_status: string | null;
  actor: { type: 'user' | 'system'; id: string | null; email: string | null; via: string | null };
  /** Paging decisions carry who was paged, who was not, and why (docs/architecture.md, "Incidents"). */
  data: Record<string, unknown> | null;
}

export interface PageJson {
  id: string;
  at: string;
  channel: string;
  to: string;
  user: { id: string; email: string } | null;
  status: string;
  error: string | null;
  fallback_reason: string | null;
  escalation_step: number | null;
  provider: string | null;
}
