import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /api/page-views { path } (the project's own counter, no third-party script): 204, no body. Only the
 * path is sent, never the query string or hash (they may carry tokens or an email address); the server folds
 * ids into the route pattern and stores a count per path and day.
 */
export function recordPageView(pathname: string): Promise<unknown> {
  return apiRequest('/api/page-views', z.unknown(), { method: 'POST', body: { path: pathname } });
}
