/** Escapes text for XML and HTML (TwiML, email bodies, small pages). */
export const escapeMarkup = (s: string): string => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c]!);
