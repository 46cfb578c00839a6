import http from 'node:http';
import https from 'node:https';

/** An answer read as JSON when it is JSON. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/**
 * One request through node's own client, for what fetch cannot do: send from a chosen local
 * address (127.0.0.2, an allowlist test), send exact bytes, or trust a test certificate.
 */
export function sendRaw(
  method: string,
  url: string,
  opts: { body?: string | Buffer; headers?: Record<string, string>; localAddress?: string; ca?: Buffer } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method,
        headers: { Accept: 'application/json', ...(opts.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...opts.headers },
        localAddress: opts.localAddress,
        ca: opts.ca,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}
