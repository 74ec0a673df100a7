import { LoaderCircle } from 'lucide-react';

export interface SpinnerProps {
  /** What is loading; read by screen readers (the icon itself is hidden from them). */
  label?: string;
  /** Show the label next to the icon instead of only to assistive technology. */
  showLabel?: boolean;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

const SIZES = { sm: 'h-4 w-4', md: 'h-8 w-8', lg: 'h-12 w-12' } as const;

export function Spinner({ label = 'Loading...', showLabel = false, size = 'md', className }: SpinnerProps) {
  return (
    <div role="status" aria-live="polite" className={`inline-flex items-center gap-2 ${className ?? ''}`.trim()}>
      <LoaderCircle aria-hidden="true" className={`${SIZES[size]} animate-spin text-brand-700 motion-reduce:animate-none`} />
      <span className={showLabel ? 'text-slate-700' : 'sr-only'}>{label}</span>
    </div>
  );
}
