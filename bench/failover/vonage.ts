import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { forkTs } from '../harness/child-process';

/** One SMS Vonage took: its recipient (E.164 digits, no +), its text, when the fake answered it (ms since the epoch, the fake's clock). */
export interface VonageSms {
  to: string;
  text: string;
  at: number;
}

/** The Vonage account the fake checks and the stack is given. */
export interface VonageAccount {
  apiKey: string;
  apiSecret: string;
  applicationId: string;
  privateKey: string;
  signatureSecret: string;
}

/** What the bench asks the fake's process (vonage-child.ts). */
export type VonageAsk = { kind: 'start'; account: VonageAccount } | { kind: 'messages'; from: number } | { kind: 'close' };

/** What it answers. */
export type VonageAnswer = { kind: 'started'; url: string } | { kind: 'messages'; messages: VonageSms[] } | { kind: 'closed' };

const CHILD = path.join(__dirname, 'vonage-child.ts');

/**
 * src/integrations/vonage/testing/wire-fake.ts in a child process, as bench/paging/twilio.ts runs
 * Twilio's: its record times are not held up by the event loop of the stack it measures. The
 * account is made here and only travels in `env`.
 */
export class VonageFakeProcess {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (a: VonageAnswer) => void; reject: (e: Error) => void }>();

  private constructor(
    private readonly child: ChildProcess,
    /** VONAGE_* variables that point a stack at this fake. */
    readonly env: Record<string, string> = {},
  ) {
    child.on('message', (msg: { id: number; reply?: VonageAnswer; error?: string }) => {
      const w = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      if (msg.reply) w?.resolve(msg.reply);
      else w?.reject(new Error(`Vonage fake: ${msg.error}`));
    });
    child.once('exit', (code, signal) => {
      for (const w of this.waiting.values()) w.reject(new Error(`the Vonage fake exited (${code ?? signal})`));
      this.waiting.clear();
    });
  }

  static async start(): Promise<VonageFakeProcess> {
    const account: VonageAccount = {
      apiKey: randomBytes(4).toString('hex'),
      apiSecret: randomBytes(12).toString('hex'),
      applicationId: randomUUID(),
      privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      signatureSecret: randomBytes(24).toString('hex'),
    };
    const fake = new VonageFakeProcess(forkTs(CHILD));
    const started = await fake.ask({ kind: 'start', account });
    if (started.kind !== 'started') throw new Error(`the Vonage fake answered ${started.kind} to start`);
    Object.assign(fake.env, {
      VONAGE_API_KEY: account.apiKey,
      VONAGE_API_SECRET: account.apiSecret,
      VONAGE_APPLICATION_ID: account.applicationId,
      VONAGE_PRIVATE_KEY: account.privateKey,
      VONAGE_FROM: '+15550003333',
      VONAGE_SIGNATURE_SECRET: account.signatureSecret,
      VONAGE_API_URL: started.url,
    });
    return fake;
  }

  private ask(ask: VonageAsk): Promise<VonageAnswer> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, ask });
    });
  }

  /** SMS taken from the `from`-th on, in answer order. */
  async messages(from = 0): Promise<VonageSms[]> {
    const a = await this.ask({ kind: 'messages', from });
    return a.kind === 'messages' ? a.messages : [];
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    await this.ask({ kind: 'close' }).catch(() => this.child.kill());
    await exited;
  }
}
