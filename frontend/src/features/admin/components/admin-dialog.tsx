import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useState, type ReactNode } from 'react';

export interface AdminDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Wider dialogs for timelines and rendered emails. */
  size?: 'md' | 'lg';
}

/**
 * A modal dialog of the admin screens. Radix traps focus inside, closes on Escape, and gives focus back to
 * the button that opened it.
 */
export function AdminDialog({ open, onOpenChange, title, description, children, size = 'md' }: AdminDialogProps) {
  // The dialogs open from plain buttons (not a Dialog.Trigger) and are unmounted when they close, so the
  // element to give focus back to is the one focused when the dialog first rendered.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null)));
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-950/50" />
        <Dialog.Content
          className={`fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl ${
            size === 'lg' ? 'max-w-3xl' : 'max-w-lg'
          }`}
          {...(description ? {} : { 'aria-describedby': undefined })}
          onCloseAutoFocus={(event) => {
            if (opener?.isConnected) {
              event.preventDefault();
              opener.focus();
            }
          }}
        >
          <Dialog.Title className="pr-8 text-xl font-bold text-slate-900 [overflow-wrap:anywhere]">{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className="mt-1 text-sm text-slate-700 [overflow-wrap:anywhere]">{description}</Dialog.Description>
          ) : null}
          <div className="mt-4">{children}</div>
          <Dialog.Close
            aria-label="Close"
            className="absolute right-3 top-3 rounded-md p-1.5 text-slate-700 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            <X aria-hidden="true" className="h-5 w-5" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
