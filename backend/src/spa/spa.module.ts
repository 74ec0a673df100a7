import { Inject, Logger, Module, type NestModule } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createSpaMiddleware, resolveSpaDistDir } from './spa-middleware';

interface UsableServer {
  use(handler: (...args: never[]) => void): unknown;
}

/**
 * Serves the built frontend (frontend/dist, or SPA_DIST_DIR) next to the API: prerendered pages, the SPA
 * shell for client-only routes, static assets and a real 404 page. Paths under /api are left to the API.
 * When the frontend has not been built the module does nothing.
 *
 * The middleware is mounted on the underlying HTTP server rather than through MiddlewareConsumer.forRoutes,
 * because Nest prefixes consumer routes with the global prefix ("api"), which would hide every page path.
 */
@Module({})
export class SpaModule implements NestModule {
  private readonly logger = new Logger(SpaModule.name);

  constructor(@Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost) {}

  configure(): void {
    const distDir = resolveSpaDistDir();
    const middleware = createSpaMiddleware(distDir);
    if (!middleware) {
      this.logger.warn(`No built frontend in ${distDir} (run npm run build -w frontend); the site is not served`);
      return;
    }
    const server = this.adapterHost.httpAdapter.getInstance<UsableServer>();
    server.use(middleware);
    this.logger.log(`Serving the frontend from ${distDir}`);
  }
}
