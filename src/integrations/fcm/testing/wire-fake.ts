import { generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { FcmServiceAccount } from '../config';
import { streamEndlessly, type EndlessAnswer, type EndlessPace } from '../../testing/endless-answer';
import { close, listen, readBody, waitUntil } from '../../testing/http-util';

/** One messages:send call that reached the fake. */
export interface FcmRequest {
  project: string;
  /** The v1 body: `{ message: { token, notification, data, android } }`. */
  body: any;
  /** True when the bearer was a token this fake issued. */
  authorized: boolean;
  status: number;
  name?: string;
  /** Arrival time, ms since the epoch. */
  at: number;
}

const fcmError = (code: number, status: string, message: string, errorCode?: string) => ({
  error: { code, message, status, ...(errorCode && { details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] }) },
});
const FAILURES = {
  UNREGISTERED: fcmError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED'),
  INVALID_ARGUMENT: fcmError(400, 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token', 'INVALID_ARGUMENT'),
  INTERNAL: fcmError(500, 'INTERNAL', 'Internal error encountered.', 'INTERNAL'),
};

/** A JWT grant assertion signed RS256 by the service-account key, for the messaging scope. */
function validAssertion(assertion: string, publicKey: string, email: string): boolean {
  const [h, p, s] = assertion.split('.');
  if (!h || !p || !s) return false;
  try {
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    if (claims.iss !== email || !String(claims.scope).includes('firebase.messaging')) return false;
    return verify('RSA-SHA256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url'));
  } catch {
    return false;
  }
}

/**
 * FCM HTTP v1 at the wire, with the OAuth token endpoint its service account's `token_uri` points
 * to: a JWT grant signed by the account's key earns a bearer, which `messages:send` checks.
 */
export async function startFcmFake(opts: { projectId: string }) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const email = `klaxon@${opts.projectId}.iam.gserviceaccount.test`;
  const issued = new Set<string>();
  const grants: Array<{ ok: boolean; at: number }> = [];
  const requests: FcmRequest[] = [];
  const failures = new Map<string, keyof typeof FAILURES>();
  const endless = new Map<string, { status: number; pace: EndlessPace }>();
  const endlessAnswers: Array<EndlessAnswer & { token: string }> = [];
  const redirects = new Map<string, number>();
  /** Requests that reached the place a redirect pointed to (a client that follows redirects). */
  const redirected: string[] = [];
  let sequence = 0;

  const server = http.createServer(async (req, res) => {
    const text = await readBody(req);
    const json = (status: number, body: object) => res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
    if (req.method === 'POST' && req.url === '/token') {
      const form = new URLSearchParams(text);
      const ok =
        form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
        validAssertion(form.get('assertion') ?? '', publicKey.export({ type: 'spki', format: 'pem' }).toString(), email);
      grants.push({ ok, at: Date.now() });
      if (!ok) return json(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      const token = `ya29.fake-${randomBytes(12).toString('hex')}`;
      issued.add(token);
      return json(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
    }
    if (req.url === '/elsewhere') {
      redirected.push(text);
      return json(200, { name: 'projects/elsewhere/messages/1' });
    }
    const m = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) return json(404, fcmError(404, 'NOT_FOUND', 'Not found'));
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    let body: any = null;
    try {
      body = JSON.parse(text);
    } catch {
      return json(400, fcmError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'));
    }
    const authorized = !!bearer && issued.has(bearer);
    const answer = (status: number, payload: object, name?: string) => (
      requests.push({ project: m[1], body, authorized, status, name, at: Date.now() }),
      json(status, payload)
    );
    if (!authorized) return answer(401, fcmError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'));
    if (m[1] !== opts.projectId) return answer(403, fcmError(403, 'PERMISSION_DENIED', 'Permission denied.'));
    const token = body?.message?.token;
    const forever = endless.get(token);
    if (forever) {
      requests.push({ project: m[1], body, authorized, status: forever.status, at: Date.now() });
      endlessAnswers.push(Object.assign(streamEndlessly(res, forever.status, forever.pace), { token }));
      return;
    }
    const redirect = redirects.get(token);
    if (redirect) {
      requests.push({ project: m[1], body, authorized, status: redirect, at: Date.now() });
      return res.writeHead(redirect, { Location: `${url}/elsewhere` }).end();
    }
    const failure = failures.get(token);
    if (failure) return answer(FAILURES[failure].error.code, FAILURES[failure]);
    const name = `projects/${opts.projectId}/messages/${++sequence}`;
    answer(200, { name }, name);
  });
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}`;

  const accepted = () => requests.filter((r) => r.status === 200);
  return {
    /** Base URL for FCM_BASE_URL. */
    url,
    /** A service-account key (as FCM_SERVICE_ACCOUNT holds it) whose token_uri is this fake. */
    serviceAccount: {
      type: 'service_account',
      project_id: opts.projectId,
      private_key_id: 'test-key-1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: email,
      token_uri: `${url}/token`,
    } satisfies FcmServiceAccount & Record<string, string>,
    /** Token grants, accepted or not. */
    grants,
    requests,
    pushes: accepted,
    waitFor: (match: (r: FcmRequest) => boolean = () => true, timeoutMs?: number) => waitUntil('an FCM push', () => accepted().find(match), timeoutMs),
    /** Makes sends to a registration token fail the way FCM does. */
    failToken: (token: string, failure: keyof typeof FAILURES = 'UNREGISTERED') => failures.set(token, failure),
    clearFailure: (token: string) => failures.delete(token),
    /** Answers sends to a registration token with `status` and a body that never ends (endless-answer.ts). */
    answerEndlessly: (token: string, status: number, pace: EndlessPace) => endless.set(token, { status, pace }),
    endlessAnswers,
    /** Answers sends to a registration token with a redirect (`status`) to /elsewhere, which takes anything. */
    redirectToken: (token: string, status: number) => redirects.set(token, status),
    redirected,
    close: () => close(server),
  };
}

export type FcmFake = Awaited<ReturnType<typeof startFcmFake>>;
