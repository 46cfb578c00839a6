import type { Context } from 'koa';
import { escapeMarkup as html } from '../domain/markup';

/**
 * The small HTML page a signed action link answers with (an email's, a Teams card's): the title
 * and a body, never cached, and no Referer leaving it (the token is in the path).
 */
export function linkPage(ctx: Context, status: number, title: string, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html';
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  ctx.body = `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${html(title)}</title><h1>${html(title)}</h1>${body}`;
}
