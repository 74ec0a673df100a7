import { Logger, Module, RequestMethod, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { createSpaMiddleware, resolveSpaDistDir } from './spa-middleware';

/**
 * Serves the built frontend (frontend/dist, or SPA_DIST_DIR) next to the API: prerendered pages, the SPA
 * shell for client-only routes, static assets and a real 404 page. Paths under /api are left to the API.
 * When the frontend has not been built the module does nothing.
 */
@Module({})
export class SpaModule implements NestModule {
  private readonly logger = new Logger(SpaModule.name);

  configure(consumer: MiddlewareConsumer): void {
    const distDir = resolveSpaDistDir();
    const middleware = createSpaMiddleware(distDir);
    if (!middleware) {
      this.logger.warn(`No built frontend in ${distDir} (run npm run build -w frontend); the site is not served`);
      return;
    }
    this.logger.log(`Serving the frontend from ${distDir}`);
    consumer.apply(middleware).forRoutes({ path: '{*splat}', method: RequestMethod.ALL });
  }
}
