import { messageResponseSchema, type MessageResponse, type UnsubscribeRequest } from '@ppr/contracts';
import { useMutation } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '../../../lib/api-client';
import { getUnsubscribeToken } from './get-unsubscribe-token';

/** POST /api/unsubscribe with a token or an email address; answers the confirmation sentence. */
export function postUnsubscribe(body: UnsubscribeRequest): Promise<MessageResponse> {
  return apiRequest('/api/unsubscribe', messageResponseSchema, { method: 'POST', body });
}

export type UnsubscribeInput = { readonly token: string } | { readonly email: string };

/** Unsubscribes by token (looking the address up first) or by email; resolves to the address when known. */
export async function unsubscribe(input: UnsubscribeInput): Promise<string | null> {
  if ('token' in input) {
    const { email } = await getUnsubscribeToken(input.token);
    await postUnsubscribe({ token: input.token });
    return email;
  }
  await postUnsubscribe({ email: input.email });
  return input.email;
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe });
}

/** The server's `message`, or the spec's fallback. */
export function unsubscribeErrorMessage(error: unknown): string {
  return error instanceof ApiRequestError && error.serverMessage ? error.serverMessage : 'An unknown error occurred';
}
