import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { close, listen, readBody } from '../../testing/http-util';
import type { MattermostAttachment, MattermostMessage } from '../message';

/** A post the fake made from an incoming-webhook request, updated by the clicks' answers as Mattermost would. */
export interface MattermostPost {
  id: string;
  key: string;
  message: MattermostMessage;
  /** The attachments now shown (the last update's, else the posted ones). */
  attachments: MattermostAttachment[];
}

/** What a click was answered: the update and/or the ephemeral text, and the status. */
export interface ClickAnswer {
  status: number;
  body: { update?: { message?: string; props?: { attachments?: MattermostAttachment[] } }; ephemeral_text?: string };
}

/**
 * A Mattermost server for tests, on 127.0.0.1: incoming webhooks at `/hooks/{key}` that record
 * each post (400 when it is not JSON, has no text and no attachments, or a button lacks its
 * integration url), and `click`, which does what Mattermost does when a member presses a button:
 * POST `{user_id, user_name, channel_id, post_id, context}` to the action's `integration.url`,
 * then apply the answer's `update` to the post.
 */
export async function startMattermost() {
  const posts: MattermostPost[] = [];
  let failWith: number | null = null;
  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const match = /^\/hooks\/([a-z0-9]{26})$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) return res.writeHead(404).end();
      if (failWith !== null) return res.writeHead(failWith).end();
      let message: MattermostMessage;
      try {
        message = JSON.parse(raw) as MattermostMessage;
      } catch {
        return res.writeHead(400, { 'content-type': 'application/json' }).end('{"id":"web.incoming_webhook.parse.app_error"}');
      }
      const actions = (message.attachments ?? []).flatMap((a) => a.actions ?? []);
      if ((!message.text && !message.attachments?.length) || actions.some((a) => !a.integration?.url || !a.name)) {
        return res.writeHead(400, { 'content-type': 'application/json' }).end('{"id":"web.incoming_webhook.text.app_error"}');
      }
      posts.push({ id: randomBytes(13).toString('hex'), key: match[1], message, attachments: message.attachments });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  const port = await listen(server);
  const base = `http://127.0.0.1:${port}`;
  return {
    /** A new incoming webhook's URL (its own key). */
    hookUrl: (): string => `${base}/hooks/${randomBytes(13).toString('hex')}`,
    posts,
    fail(status: number | null): void {
      failWith = status;
    },
    /** Presses the button `name` of a post, as member `user`, and applies the answer's update. */
    async click(post: MattermostPost, name: string, user = { id: 'u1', name: 'ada' }): Promise<ClickAnswer> {
      const action = post.attachments.flatMap((a) => a.actions ?? []).find((a) => a.name === name);
      if (!action) throw new Error(`no button ${name} on the post (it shows ${post.attachments.flatMap((a) => a.actions.map((b) => b.name)).join(', ')})`);
      const res = await fetch(action.integration.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          user_id: user.id,
          user_name: user.name,
          channel_id: 'c1',
          team_id: 't1',
          post_id: post.id,
          type: 'button',
          context: action.integration.context,
        }),
      });
      const body = (await res.json()) as ClickAnswer['body'];
      if (body.update?.props?.attachments) post.attachments = body.update.props.attachments;
      return { status: res.status, body };
    },
    close: () => close(server),
  };
}

export type MattermostFake = Awaited<ReturnType<typeof startMattermost>>;
