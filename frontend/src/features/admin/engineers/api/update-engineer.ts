import { engineerSchema, type Engineer, type UpdateEngineer } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { engineersQueryOptions } from './get-engineers';

/** PATCH /api/admin/engineers/{id}: deactivate or reactivate an engineer. */
export function updateEngineer(engineerId: number, body: UpdateEngineer): Promise<Engineer> {
  return apiRequest(`/api/admin/engineers/${engineerId}`, engineerSchema, { method: 'PATCH', body });
}

export function useUpdateEngineer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ engineerId, body }: { engineerId: number; body: UpdateEngineer }) => updateEngineer(engineerId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: engineersQueryOptions().queryKey }),
  });
}
