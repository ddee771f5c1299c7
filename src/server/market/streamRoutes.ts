/**
 * The live market stream: `GET /exchange/api/web/stream` upgraded to a WebSocket
 * (docs/decisions.md, Paths). Signed-in users only (it feeds the customer home page), same-site
 * pages only: the CSRF plugin guards non-GET calls, and an upgrade is a GET, so the Origin is
 * checked here.
 */
import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { SESSION_COOKIE } from '../../shared/api/http';
import { MAX_CLIENT_MESSAGE_BYTES } from '../../shared/api/market';
import { hashToken } from '../db/opaqueTokens';
import { isSessionLive } from '../db/sessions';
import { ClientError, forbidden, unauthorized } from '../errors';
import { MarketFeed } from './marketFeed';
import { MarketSimulator } from './simulator';
import { StreamConnection, type StreamSocket } from './streamConnection';

declare module 'fastify' {
  interface FastifyInstance {
    /** The market behind the stream: one simulator across instances (tests seed and drive it). */
    market: MarketFeed;
    /** How many live-market WebSocket clients this instance serves (the metrics read it). */
    marketStreamClients: () => number;
  }
}

/** How often an open stream checks that its session still exists. */
const SESSION_RECHECK_MS = 60_000;
const MAX_CONNECTIONS_PER_USER = 10;

export const marketStreamPlugin = fp(
  async (app: FastifyInstance) => {
    const market = new MarketFeed(new MarketSimulator(), app.db, app.notifications, (line) =>
      app.log.info(line),
    );
    await market.start();
    app.decorate('market', market);
    const connections = new Set<StreamConnection>();
    app.decorate('marketStreamClients', () => connections.size);
    app.addHook('onClose', async () => market.stop());
    await app.register(streamRoutes, { prefix: '/exchange/api/web', market, connections });
  },
  { name: 'market-stream' },
);

async function streamRoutes(
  app: FastifyInstance,
  options: { market: MarketFeed; connections: Set<StreamConnection> },
) {
  const { connections } = options;
  const perUser = new Map<string, number>();
  const allowedHosts = new Set([new URL(app.config.publicUrl).host]);
  const admitted = new WeakMap<FastifyRequest, string>();

  // Before @fastify/websocket's own preClose, which closes sockets without a word.
  app.addHook('preClose', async () => {
    for (const connection of connections) {
      connection.disconnect({ reason: 'server_shutdown', reconnect: true }, 1001);
    }
    await options.market.stop();
  });
  // Scoped to this plugin: its route wrapper touches only the routes registered here.
  await app.register(websocket, { options: { maxPayload: MAX_CLIENT_MESSAGE_BYTES } });

  async function admit(request: FastifyRequest) {
    const origin = request.headers.origin;
    if (origin !== undefined) {
      const host = originHost(origin);
      if (!host || (host !== request.headers.host && !allowedHosts.has(host))) {
        throw forbidden('Cross-site request refused.');
      }
    }
    const userId = await request.sessionUserId();
    if (!userId) throw unauthorized();
    admitted.set(request, userId);
    if ((perUser.get(userId) ?? 0) >= MAX_CONNECTIONS_PER_USER) {
      throw new ClientError(429, 'Too many open market streams.');
    }
  }

  // Synchronous, so the listeners are in place before the client's first message is read.
  app.get('/stream', { websocket: true, preValidation: admit }, (raw, request) => {
    const socket = raw as StreamSocket;
    const userId = admitted.get(request) ?? '';
    const token = request.cookies[SESSION_COOKIE] ?? '';
    const connection = new StreamConnection(socket, options.market);
    connections.add(connection);
    perUser.set(userId, (perUser.get(userId) ?? 0) + 1);

    // Signing out elsewhere, or the session running out, ends the stream too.
    const recheck = setInterval(() => {
      void sessionAlive(app.db, token).then(
        (alive) => {
          if (!alive) connection.disconnect({ reason: 'session_ended', reconnect: false }, 4401);
        },
        (err: unknown) => request.log.warn({ err }, 'stream session check failed'),
      );
    }, SESSION_RECHECK_MS);
    recheck.unref();

    socket.on('close', () => {
      clearInterval(recheck);
      connections.delete(connection);
      const left = (perUser.get(userId) ?? 1) - 1;
      if (left > 0) perUser.set(userId, left);
      else perUser.delete(userId);
    });
  });
}

/**
 * Whether the session is still live, without touching its idle timer: an open stream is not user
 * activity and must not keep a session alive.
 */
async function sessionAlive(pool: pg.Pool, token: string): Promise<boolean> {
  return isSessionLive(pool, hashToken(token));
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null; // `Origin: null` and garbage never match
  }
}
