export interface SearchableService {
  readonly name: string;
  readonly description?: string | undefined;
  readonly subtopics: readonly string[];
}

/** Keeps the services whose name, description or a subtopic contains the query, ignoring case. */
export function filterServices<T extends SearchableService>(services: readonly T[], query: string): T[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...services];
  return services.filter((service) =>
    [service.name, service.description ?? '', ...service.subtopics].some((text) => text.toLowerCase().includes(needle)),
  );
}
