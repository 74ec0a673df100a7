import * as Toast from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { dismissToast, useToasts } from '../../lib/toast';

/**
 * The toast area: one toast at a time, closing after 5 seconds, swipe right past 50px to dismiss and F8 to
 * focus the area. These are Radix Toast's defaults, spelled out so they cannot drift.
 */
export function Toaster() {
  const toasts = useToasts();
  return (
    <Toast.Provider duration={5000} swipeDirection="right" swipeThreshold={50} label="Notification">
      {toasts.map((message) => (
        <Toast.Root
          key={message.id}
          type={message.variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismissToast(message.id);
          }}
          className={`grid grid-cols-[1fr_auto] items-start gap-2 rounded-lg border p-4 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] ${
            message.variant === 'destructive' ? 'border-red-700 bg-red-700 text-white' : 'border-slate-200 bg-white text-slate-900'
          }`}
        >
          <div>
            <Toast.Title className="font-semibold">{message.title}</Toast.Title>
            {message.description ? <Toast.Description className="mt-1 text-sm">{message.description}</Toast.Description> : null}
          </div>
          <Toast.Close aria-label="Close" className="rounded p-1 hover:bg-black/10">
            <X aria-hidden="true" className="h-4 w-4" />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport
        hotkey={['F8']}
        className="fixed bottom-0 right-0 z-50 m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none"
      />
    </Toast.Provider>
  );
}
