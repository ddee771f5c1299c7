import fp from 'fastify-plugin';
import type { FastifySchema } from 'fastify';

/** One registered route: its method and its URL pattern as Fastify matches it. */
export interface RouteEntry {
  method: string;
  url: string;
  /** Its schema as the app ended with it (later onRoute hooks add the contract's parts). */
  readonly schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app as registered (filled while routes register; complete at ready). */
    routeTable: RouteEntry[];
  }
}

/**
 * Records every route the app registers, so tests can cover each one (the CSRF check, the
 * fuzzer) without a hand-kept list: a new route is covered the day it is added.
 */
export const routeTablePlugin = fp(async (app) => {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      table.push({
        method,
        url: route.url,
        get schema() {
          return route.schema;
        },
      });
    }
  });
});
