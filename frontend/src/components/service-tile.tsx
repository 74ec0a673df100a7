import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { CategoryIcon } from './category-icon';

export const MAX_SUBTOPICS = 5;

export interface ServiceTileProps {
  readonly icon: string;
  readonly name: string;
  readonly description?: string | undefined;
  readonly subtopics: readonly string[];
  /** Heading level of the tile's name in the page outline. */
  readonly headingLevel?: 2 | 3;
}

/** A service category: icon, name, optional description, up to five subtopics, the price note and a link. */
export function ServiceTile({ icon, name, description, subtopics, headingLevel = 3 }: ServiceTileProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm transition hover:shadow-md">
      <div className="mb-4 flex items-center gap-3">
        <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
          <CategoryIcon name={icon} />
        </span>
        <Heading className="text-lg font-semibold leading-snug text-slate-900">{name}</Heading>
      </div>
      {description ? <p className="mb-4 text-sm text-slate-700">{description}</p> : null}
      <ul className="mb-6 space-y-1.5 text-sm text-slate-700" aria-label={`${name}: examples`}>
        {subtopics.slice(0, MAX_SUBTOPICS).map((subtopic) => (
          <li key={subtopic} className="flex gap-2">
            <span aria-hidden="true" className="mt-2 h-1.5 w-1.5 shrink-0 rounded-full bg-brand-600" />
            <span>{subtopic}</span>
          </li>
        ))}
      </ul>
      <div className="mt-auto flex items-center justify-between gap-3 border-t border-slate-100 pt-4">
        <span className="text-sm font-medium text-slate-600">Price after diagnosis</span>
        <Link
          to={paths.supportRequest.getHref()}
          className="rounded-md bg-brand-700 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800 forced-colors:border"
        >
          Request Support<span className="sr-only"> for {name}</span>
        </Link>
      </div>
    </article>
  );
}
