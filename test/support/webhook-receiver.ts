import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got, verified with the standardwebhooks library (not our code). */
export interface Received {
  id: string;
  timestamp: string;
  event: { id: string; type: string; incident: { id: string; status: string } | null; [k: string]: unknown };
  verified: boolean;
}

/**
 * A customer's endpoint for tests: verifies every request's Standard Webhooks signature with the
 * scheme's own library and answers what `answer` says (200 unless told).
 */
export async function startWebhookReceiver(opts: { secret?: () => string | undefined; answer?: (event: Received['event'], attempt: number) => number } = {}) {
  const received: Received[] = [];
  const attempts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      let verified = false;
      const secret = opts.secret?.();
      if (secret) {
        try {
          new Webhook(secret).verify(body, headers);
          verified = true;
        } catch {
          verified = false;
        }
      }
      const event = JSON.parse(body) as Received['event'];
      const attempt = (attempts.get(headers['webhook-id']) ?? 0) + 1;
      attempts.set(headers['webhook-id'], attempt);
      const status = opts.answer?.(event, attempt) ?? 200;
      if (status >= 200 && status < 300) received.push({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], event, verified });
      res.writeHead(status, status >= 300 && status < 400 ? { location: 'http://169.254.169.254/latest/meta-data/' } : {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/klaxon`;
  return {
    url,
    received,
    attempts,
    /** Every request that came, accepted or not. */
    get requests(): number {
      return [...attempts.values()].reduce((a, b) => a + b, 0);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
