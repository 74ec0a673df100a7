import { ApiRequestError } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';

/**
 * SPEC section 8, admin updates: a refused update is 'Update failed' with what failed (and the server's
 * reason when it gave one); anything else is 'Update error' / 'An unexpected error occurred'.
 */
export function toastUpdateError(error: unknown, failed: string): void {
  if (error instanceof ApiRequestError) {
    const description = error.serverMessage ? `${failed}. ${error.serverMessage}` : failed;
    toast({ title: 'Update failed', description, variant: 'destructive' });
  } else {
    toast({ title: 'Update error', description: 'An unexpected error occurred', variant: 'destructive' });
  }
}
