import { projectionsStatusSchema, type ProjectionsStatusResponse } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** GET /api/admin/projections: each read model's checkpoint, lag and error. */
export function getProjections(): Promise<ProjectionsStatusResponse> {
  return apiRequest('/api/admin/projections', projectionsStatusSchema);
}

export const projectionsQueryOptions = () => queryOptions({ queryKey: ['admin', 'projections'], queryFn: getProjections, staleTime: 0 });

export function useProjections() {
  return useQuery(projectionsQueryOptions());
}
