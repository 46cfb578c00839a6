/** How the dashboard names a person: anywhere they are shown, and in pickers, where two people may share a name. */

/** A person as shown: their name, else their email. */
export const personLabel = (p: { email: string; name?: string | null } | undefined, fallback = 'someone no longer here'): string =>
  p ? p.name || p.email : fallback;

/** A person in a picker: "Ada (ada@example.com)", or the email alone. */
export const personPickerLabel = (p: { email: string; name?: string | null }): string => (p.name ? `${p.name} (${p.email})` : p.email);
