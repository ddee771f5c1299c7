import type { FastifyInstance } from 'fastify';
import { firm } from '../../shared/config/firm';
import { findUserById } from '../db/users';

/**
 * `/clearing/admin/*`: the staff console, a separate page rather than the customer app, so the
 * app's full-page reload to this path never loops (DECISIONS). Only staff reach it.
 */
export async function registerStaffConsole(app: FastifyInstance): Promise<void> {
  const handler = async (
    request: import('fastify').FastifyRequest,
    reply: import('fastify').FastifyReply,
  ) => {
    const userId = await request.sessionUserId();
    if (!userId) {
      const message = encodeURIComponent('Please sign in to view that content.');
      return reply.redirect(`/clearing/signin?message=${message}`);
    }
    const user = await findUserById(app.db, userId);
    if (!user?.isNorthstarClearingStaff) {
      return reply
        .code(403)
        .type('text/html')
        .send(page('Staff only', '<p>This console is for staff.</p>'));
    }
    return reply
      .type('text/html')
      .send(page('Clearing Admin', `<p>Signed in as ${escapeHtml(user.email)}.</p>`));
  };
  app.get('/clearing/admin', handler);
  app.get('/clearing/admin/*', handler);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · ${escapeHtml(firm.displayName)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}<p><a href="/clearing/logout">Logout</a></p></main></body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
