/**
 * The `/klaxon` slash command's text (docs/chat.md, "Slash command"), parsed without I/O:
 * `oncall [schedule name]`, `incidents`, `ack N`, `resolve N`, `help`; anything else is help.
 */

export type SlackCommand =
  | { kind: 'oncall'; schedule: string | null }
  | { kind: 'incidents' }
  | { kind: 'act'; action: 'acknowledge' | 'resolve'; number: number }
  | { kind: 'help'; unknown: string | null };

/** The longest text looked at; Slack sends far less, anything longer is not a command of ours. */
export const MAX_COMMAND_TEXT = 500;

const ACT_WORDS: Record<string, 'acknowledge' | 'resolve'> = {
  ack: 'acknowledge',
  acknowledge: 'acknowledge',
  resolve: 'resolve',
};

/** The command a text asks for. Numbers may be written `42` or `#42`. */
export function parseSlackCommand(raw: string): SlackCommand {
  if (raw.length > MAX_COMMAND_TEXT) return { kind: 'help', unknown: raw.slice(0, 40) };
  const words = raw.trim().split(/\s+/).filter(Boolean);
  const [first, ...rest] = words;
  if (!first) return { kind: 'help', unknown: null };
  const verb = first.toLowerCase();
  if (verb === 'help') return { kind: 'help', unknown: null };
  if (verb === 'oncall' || verb === 'on-call' || verb === 'who') return { kind: 'oncall', schedule: rest.length ? rest.join(' ') : null };
  if ((verb === 'incidents' || verb === 'open') && rest.length === 0) return { kind: 'incidents' };
  const action = ACT_WORDS[verb];
  if (action && rest.length === 1) {
    const number = /^#?(\d{1,9})$/.exec(rest[0])?.[1];
    if (number && Number(number) > 0) return { kind: 'act', action, number: Number(number) };
  }
  return { kind: 'help', unknown: raw.trim().slice(0, 40) };
}

/** What `/klaxon help` (and anything unknown) answers. */
export const SLACK_COMMAND_USAGE = [
  '*/klaxon* commands:',
  '• `/klaxon oncall [schedule]` — who is on call now',
  '• `/klaxon incidents` — open incidents',
  '• `/klaxon ack N` — acknowledge incident #N',
  '• `/klaxon resolve N` — resolve incident #N',
  '• `/klaxon help` — this text',
].join('\n');
