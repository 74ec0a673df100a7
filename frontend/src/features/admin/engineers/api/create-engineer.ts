import { engineerSchema, type CreateEngineer, type Engineer } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { engineersQueryOptions } from './get-engineers';

/** POST /api/admin/engineers. */
export function createEngineer(body: CreateEngineer): Promise<Engineer> {
  return apiRequest('/api/admin/engineers', engineerSchema, { method: 'POST', body });
}

export function useCreateEngineer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEngineer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: engineersQueryOptions().queryKey }),
  });
}
