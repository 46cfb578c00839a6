import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { forkTs } from '../harness/child-process';

/** One SMS as it reached the fake: recipient, text, arrival (ms since the epoch, the fake's clock). */
export interface ArrivedSms {
  to: string;
  body: string;
  at: number;
}

/** How many SMS the fake accepted, in all and per recipient, and how many REST calls it refused. */
export interface SmsCount {
  accepted: number;
  refused: number;
  byTo: Record<string, number>;
}

/** One SMS request as the fake answered it, taken or refused (the failover phase, bench/failover/). */
export interface AnsweredSms {
  to: string;
  body: string;
  status: number;
  /** The message SID, when taken. */
  sid?: string;
  /** When the fake answered it, ms since the epoch (the fake's clock). */
  at: number;
}

/** A delivery report (StatusCallback) the fake sent, and when Klaxon's answer to it came back. */
export interface SentReport {
  sid: string;
  to: string;
  /** The SMS's text, to tell its incident. */
  body: string;
  messageStatus: string;
  /** Klaxon's HTTP status; 0 when the request failed. */
  answer: number;
  /** When Klaxon's answer arrived, ms since the epoch (the fake's clock). */
  answeredAt: number;
}

/** What the bench asks the fake's process (bench/paging/twilio-child.ts). */
export type FakeAsk =
  | { kind: 'start'; account: { accountSid: string; authToken: string } }
  | { kind: 'count' }
  | { kind: 'messages'; from: number }
  | { kind: 'answered'; from: number }
  | { kind: 'fail-to'; to: string; status: number }
  | { kind: 'report-on-arrival'; to: string; messageStatus: string; errorCode?: string }
  | { kind: 'report'; sid: string; messageStatus: string; errorCode?: string }
  | { kind: 'reports'; from: number }
  | { kind: 'cpu' }
  | { kind: 'close' };

/** What it answers. */
export type FakeAnswer =
  | { kind: 'started'; url: string }
  | ({ kind: 'count' } & SmsCount)
  | { kind: 'messages'; messages: ArrivedSms[] }
  | { kind: 'answered'; requests: AnsweredSms[] }
  | { kind: 'reports'; reports: SentReport[] }
  | { kind: 'done' }
  | { kind: 'cpu'; ms: number }
  | { kind: 'closed' };

const CHILD = path.join(__dirname, 'twilio-child.ts');

/**
 * src/integrations/twilio/testing/wire-fake.ts run in a child process: Twilio's REST API at the wire, for the
 * stack's real Twilio SDK. The account credentials are made here and only travel in `env`.
 */
export class TwilioFakeProcess {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (a: FakeAnswer) => void; reject: (e: Error) => void }>();

  private constructor(
    private readonly child: ChildProcess,
    /** TWILIO_* variables that point a stack at this fake. */
    readonly env: Record<string, string> = {},
  ) {
    child.on('message', (msg: { id: number; reply?: FakeAnswer; error?: string }) => {
      const w = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      if (msg.reply) w?.resolve(msg.reply);
      else w?.reject(new Error(`Twilio fake: ${msg.error}`));
    });
    child.once('exit', (code, signal) => {
      for (const w of this.waiting.values()) w.reject(new Error(`the Twilio fake exited (${code ?? signal})`));
      this.waiting.clear();
    });
  }

  /** The process id, so CPU snapshots can tell it apart. */
  get pid(): number {
    return this.child.pid!;
  }

  static async start(): Promise<TwilioFakeProcess> {
    const child = forkTs(CHILD);
    const account = { accountSid: `AC${randomBytes(16).toString('hex')}`, authToken: randomBytes(16).toString('hex') };
    const fake = new TwilioFakeProcess(child);
    const started = await fake.ask({ kind: 'start', account });
    if (started.kind !== 'started') throw new Error(`the Twilio fake answered ${started.kind} to start`);
    Object.assign(fake.env, {
      TWILIO_ACCOUNT_SID: account.accountSid,
      TWILIO_AUTH_TOKEN: account.authToken,
      TWILIO_FROM_NUMBER: '+15550000000',
      TWILIO_API_BASE_URL: started.url,
    });
    return fake;
  }

  private ask(ask: FakeAsk): Promise<FakeAnswer> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, ask });
    });
  }

  /** SMS accepted so far, in all and per recipient, and REST calls refused (bad auth, unknown path): there should be none. */
  async count(): Promise<SmsCount> {
    const a = await this.ask({ kind: 'count' });
    return a.kind === 'count' ? a : { accepted: NaN, refused: NaN, byTo: {} };
  }

  /** Accepted SMS from the `from`-th on, in arrival order. */
  async messages(from = 0): Promise<ArrivedSms[]> {
    const a = await this.ask({ kind: 'messages', from });
    return a.kind === 'messages' ? a.messages : [];
  }

  /** SMS requests from the `from`-th on, taken or refused, in answer order. */
  async answered(from = 0): Promise<AnsweredSms[]> {
    const a = await this.ask({ kind: 'answered', from });
    return a.kind === 'answered' ? a.requests : [];
  }

  /** Makes every SMS to `to` answer a bare HTTP `status` (e.g. 500): Twilio refusing it. */
  async failTo(to: string, status: number): Promise<void> {
    await this.ask({ kind: 'fail-to', to, status });
  }

  /** From now on, each SMS to `to` the fake takes is reported at once (its StatusCallback, signed), e.g. `undelivered` with 30003. */
  async reportOnArrival(to: string, messageStatus: string, errorCode?: string): Promise<void> {
    await this.ask({ kind: 'report-on-arrival', to, messageStatus, errorCode });
  }

  /** Reports on one SMS the fake took, now; the report is then among `reports()`. */
  async report(sid: string, messageStatus: string, errorCode?: string): Promise<void> {
    await this.ask({ kind: 'report', sid, messageStatus, errorCode });
  }

  /** Reports sent from the `from`-th on, with Klaxon's answers. */
  async reports(from = 0): Promise<SentReport[]> {
    const a = await this.ask({ kind: 'reports', from });
    return a.kind === 'reports' ? a.reports : [];
  }

  /** CPU time the fake's process has used so far, ms. */
  async cpuMs(): Promise<number> {
    const a = await this.ask({ kind: 'cpu' });
    return a.kind === 'cpu' ? a.ms : NaN;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    await this.ask({ kind: 'close' }).catch(() => this.child.kill());
    await exited;
  }
}
