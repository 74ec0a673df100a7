import { engineerSchema, type Engineer } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../../lib/api-client';

const engineerListSchema = z.array(engineerSchema);

/** GET /api/admin/engineers: every engineer, active or not. */
export function getEngineers(): Promise<Engineer[]> {
  return apiRequest('/api/admin/engineers', engineerListSchema);
}

export const engineersQueryOptions = () => queryOptions({ queryKey: ['admin', 'engineers'], queryFn: getEngineers });

export function useEngineers() {
  return useQuery(engineersQueryOptions());
}
