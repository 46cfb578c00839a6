/**
 * Klaxon's own "Continue with SSO" page (docs/sso.md, "Signing in"): the only place a single
 * sign-on starts. No script (the Content-Security-Policy allows none inline): a form that posts
 * the address or workspace back with the page's nonce.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML, attribute values included. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** What the page posts back: one of the two, as the GET named it, and the nonce also set in the cookie. */
export interface StartPageFields {
  email?: string;
  organization_id?: string;
  nonce: string;
}

const hidden = (name: string, value: string | undefined) => (value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`);

/** The page's HTML. */
export function ssoStartPage(fields: StartPageFields, action: string): string {
  const who = fields.email === undefined ? 'your workspace' : escapeHtml(fields.email);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Continue with SSO · Klaxon</title>
<style>
body { font-family: system-ui, sans-serif; display: flex; min-height: 100vh; margin: 0; align-items: center; justify-content: center; background: #f8f9fa; color: #212529; }
main { background: #fff; border: 1px solid #dee2e6; border-radius: 8px; padding: 2rem; max-width: 26rem; }
button { font: inherit; padding: 0.5rem 1rem; border: 0; border-radius: 4px; background: #228be6; color: #fff; cursor: pointer; }
a { color: #1c7ed6; }
</style>
</head>
<body>
<main>
<h1>Sign in to Klaxon</h1>
<p>Sign in as <strong>${who}</strong> at your company’s identity provider.</p>
<form method="post" action="${escapeHtml(action)}">
${hidden('email', fields.email)}${hidden('organization_id', fields.organization_id)}${hidden('nonce', fields.nonce)}
<button type="submit">Continue with SSO</button>
</form>
<p><a href="/login">Back to the login page</a></p>
</main>
</body>
</html>
`;
}
