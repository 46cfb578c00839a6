/**
 * The field a server error names, dotted: `password: must be…` → `password`. Request schemas say
 * `layers.0.users: …`, services `layers[0].users: …`: both come out as `layers.0.users`.
 */
export function fieldOf(message: string | undefined | null): string | undefined {
  const head = message ? /^([a-z_][\w.[\]]*):/i.exec(message)?.[1] : undefined;
  return head?.replace(/\[(\d+)\]/g, '.$1');
}

/** The message when it names `field` or a field inside it (`layers.0` matches `layers.0.users`). */
export function messageFor(message: string | undefined | null, field: string): string | undefined {
  const named = fieldOf(message);
  return named && (named === field || named.startsWith(`${field}.`)) ? (message ?? undefined) : undefined;
}
