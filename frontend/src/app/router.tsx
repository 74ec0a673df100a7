import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Routes } from 'react-router-dom';
import { APP_ROUTES, NOT_FOUND_ROUTE, type AppRoute, type RoutePageProps } from '../config/paths';
import { RootLayout } from './root-layout';

type PageComponent = ComponentType<RoutePageProps>;

// Every module in ./routes is a page, loaded on demand (one chunk each). A glob rather than a list of
// imports, so that the route table in config/paths.ts stays the only place that names a page.
const pageModules = import.meta.glob<{ default: PageComponent }>(['./routes/*.tsx', '!./routes/*.test.tsx']);

/** Where a page module lives, as the client build's manifest names it (the prerenderer's modulepreload links). */
export function pageModuleSource(page: string): string {
  return `src/app/routes/${page}.tsx`;
}

// One lazy component per module, not per route: the 21 regional pages share one component, so moving
// between them re-renders it with a new route instead of remounting it.
const pageComponents = new Map<string, LazyExoticComponent<PageComponent>>();
function pageComponent(page: string): LazyExoticComponent<PageComponent> {
  let component = pageComponents.get(page);
  if (!component) {
    const load = pageModules[`./routes/${page}.tsx`];
    // Fails the build (prerender) and every test that renders the app, rather than a blank page in production.
    if (!load) throw new Error(`The route table names page "${page}", but ${pageModuleSource(page)} does not exist`);
    component = lazy(load);
    pageComponents.set(page, component);
  }
  return component;
}

function routeElement(route: AppRoute) {
  const Page = pageComponent(route.page);
  return <Page route={route} />;
}

const ROUTE_ELEMENTS = APP_ROUTES.map((route) => <Route key={route.path} path={route.path} element={routeElement(route)} />);
const NOT_FOUND_ELEMENT = routeElement(NOT_FOUND_ROUTE);

/** The router, generated from the route table. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        {ROUTE_ELEMENTS}
        <Route path="*" element={NOT_FOUND_ELEMENT} />
      </Route>
    </Routes>
  );
}
