import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/router';

// What scripts/prerender.mjs needs, all generated from the route table (src/config/paths.ts).
export { BUSINESS_PROFILE } from '@ppr/contracts';
export { pageModuleSource } from './app/router';
export {
  APP_ROUTES,
  CLIENT_ROUTE_PATTERNS,
  NOT_FOUND_ROUTE,
  PRERENDERED_PATHS,
  ROBOTS_DISALLOW,
  SHELL_META,
  SITEMAP_PATHS,
  absoluteUrl,
} from './config/paths';
export { renderHeadTags } from './lib/document-head';

/** Renders one route to HTML, waiting for its lazily loaded code (used by the prerender script). */
export async function render(url: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <AppProviders>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
