import { BUSINESS_PROFILE } from '@ppr/contracts';
import { TriangleAlert } from 'lucide-react';
import { paths } from '../../config/paths';
import { buttonClasses } from '../button-link';

// Messages of a failed dynamic import: Chromium, Firefox, Safari, and Vite's own preload helper.
const CHUNK_LOAD_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk .* failed/i;

/** True when the error comes from a page's code failing to download (network drop, or a deploy replaced the chunk). */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ChunkLoadError' || CHUNK_LOAD_FAILURE.test(error.message));
}

export interface ErrorFallbackProps {
  readonly error: unknown;
  readonly onReload: () => void;
}

/**
 * What shows instead of a blank page when a page fails: why, in words a visitor can act on, a Reload button and
 * a way home. The home link is a plain anchor: it works even when the router itself is what failed, and a full
 * page load fetches fresh code.
 */
export function ErrorFallback({ error, onReload }: ErrorFallbackProps) {
  const chunk = isChunkLoadError(error);
  const title = chunk ? 'This page could not be loaded' : 'Something went wrong';
  const text = chunk
    ? 'Part of the page did not download, perhaps because the connection dropped or the site has just been updated. Reloading the page usually fixes it.'
    : 'An unexpected error stopped this page from showing. Reloading the page usually fixes it.';
  return (
    <section aria-labelledby="error-title" className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
      <TriangleAlert aria-hidden="true" className="mx-auto h-12 w-12 text-amber-600" />
      <div role="alert">
        <h1 id="error-title" className="mt-4 text-3xl font-bold tracking-tight text-slate-900">
          {title}
        </h1>
        <p className="mt-4 text-lg text-slate-700">{text}</p>
      </div>
      <p className="mt-4 text-slate-700">
        If it keeps happening, call{' '}
        <a href={`tel:${BUSINESS_PROFILE.phoneE164}`} className="font-semibold text-brand-700 underline">
          {BUSINESS_PROFILE.phone}
        </a>
        .
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <button type="button" onClick={onReload} className={buttonClasses('primary')}>
          Reload page
        </button>
        <a href={paths.home.getHref()} className={buttonClasses('outline')}>
          Go to the homepage
        </a>
      </div>
    </section>
  );
}
