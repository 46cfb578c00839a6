/**
 * What a sender said, made safe to show (docs/incident-page.md, "Everything the sender said"):
 * text split into plain parts and http(s) links (React escapes the text, so no HTML gets in),
 * and an alert's metadata as labels, links and other key–value details.
 */

/** A link target when `raw` is an absolute http(s) URL; null for anything else (javascript:, data:, relative). */
export function safeHttpUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 4096) return null;
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export type TextPart = { text: string } | { href: string; text: string };

// A URL in prose: the scheme, then anything up to whitespace or a character never in a bare URL (linear: one class).
const URL_IN_TEXT = /https?:\/\/[^\s<>"'`]+/gi;
// Sentence punctuation right after a URL belongs to the sentence.
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}']);

/** The text as parts: plain text, and the http(s) URLs in it as links. */
export function linkParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    let url = match[0];
    while (url.length > 0 && TRAILING.has(url[url.length - 1])) url = url.slice(0, -1);
    const start = match.index;
    const href = safeHttpUrl(url);
    if (!href) continue;
    if (start > at) parts.push({ text: text.slice(at, start) });
    parts.push({ href, text: url });
    at = start + url.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

export interface SenderDetails {
  /** `labels` (Alertmanager, Grafana, Google Cloud), as key–value pairs. */
  labels: Array<[string, string]>;
  /** `links` (named, or PagerDuty's `[{href, text}]`) and any field whose value is an http(s) URL (`runbook_url`). */
  links: Array<{ label: string; href: string }>;
  /** Everything else: scalars as text, objects and lists as JSON. */
  details: Array<[string, string]>;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function linksOf(value: unknown): Array<{ label: string; href: string }> | null {
  if (isObject(value)) {
    const found = Object.entries(value).flatMap(([label, url]) => {
      const href = safeHttpUrl(url);
      return href ? [{ label, href }] : [];
    });
    return found.length ? found : null;
  }
  if (Array.isArray(value)) {
    const found = value.flatMap((l) => {
      const href = isObject(l) ? safeHttpUrl(l.href ?? l.url) : safeHttpUrl(l);
      return href ? [{ label: isObject(l) && typeof l.text === 'string' && l.text ? l.text : href, href }] : [];
    });
    return found.length ? found : null;
  }
  return null;
}

/** An alert's metadata as the incident page shows it. */
export function senderDetails(metadata: Record<string, unknown> | null | undefined): SenderDetails {
  const out: SenderDetails = { labels: [], links: [], details: [] };
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (value === null || value === undefined || value === '') continue;
    if (key === 'labels' && isObject(value)) {
      out.labels.push(...Object.entries(value).map(([k, v]): [string, string] => [k, asText(v)]));
      continue;
    }
    if (key === 'links') {
      const links = linksOf(value);
      if (links) {
        out.links.push(...links);
        continue;
      }
    }
    const href = safeHttpUrl(value);
    if (href) out.links.push({ label: key, href });
    else out.details.push([key, asText(value)]);
  }
  return out;
}
