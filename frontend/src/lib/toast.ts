import { useSyncExternalStore } from 'react';

export interface ToastMessage {
  readonly id: number;
  readonly title: string;
  readonly description?: string;
  readonly variant: 'default' | 'destructive';
}

type Listener = () => void;

let current: readonly ToastMessage[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Shows a toast; only one toast is on screen at a time, so a new one replaces the last. */
export function toast(input: { title: string; description?: string; variant?: ToastMessage['variant'] }): number {
  const id = nextId++;
  const message: ToastMessage = {
    id,
    title: input.title,
    variant: input.variant ?? 'default',
    ...(input.description === undefined ? {} : { description: input.description }),
  };
  current = [message];
  emit();
  return id;
}

export function dismissToast(id: number): void {
  current = current.filter((message) => message.id !== id);
  emit();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const empty: readonly ToastMessage[] = [];

export function useToasts(): readonly ToastMessage[] {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => empty,
  );
}
