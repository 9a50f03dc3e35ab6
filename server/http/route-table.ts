import type { FastifyContextConfig, FastifyInstance } from 'fastify';

/** One registered route as the security tests and the docs see it. */
export type RouteEntry = { method: string; url: string; config: FastifyContextConfig; bodyLimit: number | undefined };

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after buildApp started, in registration order (HEAD twins of GETs excluded). */
    routeTable: RouteEntry[];
  }
}

/** Records every route as it is registered, so a test can walk them all and a new route cannot be missed. */
export function collectRoutes(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        config: (route.config ?? {}) as FastifyContextConfig,
        // Read when asked: a plugin's own onRoute hook (a module's default body limit) runs after this one.
        get bodyLimit() {
          return route.bodyLimit;
        },
      });
    }
  });
  return routes;
}
