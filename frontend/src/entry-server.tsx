import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/app-routes';

export { BUSINESS_PROFILE } from '@ppr/contracts';
export { CLIENT_ROUTE_PATTERNS } from './config/paths';
export { NOT_FOUND_META, PRERENDERED_PATHS, SHELL_META, absoluteUrl, getPageMeta } from './config/pages';
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
