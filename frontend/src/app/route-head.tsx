import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { getPageMeta } from '../config/paths';
import { applyHeadTags } from '../lib/document-head';

/** Keeps title, description, canonical and Open Graph tags in step with client-side navigation. */
export function RouteHead() {
  const { pathname } = useLocation();
  useEffect(() => {
    applyHeadTags(getPageMeta(pathname));
  }, [pathname]);
  return null;
}
