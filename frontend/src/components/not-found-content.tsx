import { Link } from 'react-router-dom';
import { paths } from '../config/paths';

/** The not-found page of the spec: the catch-all route, and the guard of the generated regional and landing pages. */
export function NotFoundContent() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight text-slate-900">404 Page Not Found</h1>
      <p className="mt-4 text-slate-700">Did you forget to add the page to the router?</p>
      <p className="mt-8">
        <Link to={paths.home.getHref()} className="font-semibold text-brand-700 underline">
          Return to Homepage
        </Link>
      </p>
    </section>
  );
}
