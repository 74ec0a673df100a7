import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

const VARIANTS = {
  // Filled: a border in forced colors, where the fill is dropped.
  primary: 'bg-brand-700 text-white hover:bg-brand-800 forced-colors:border',
  accent: 'bg-amber-400 text-slate-950 hover:bg-amber-300 forced-colors:border',
  outline: 'border border-brand-700 text-brand-700 hover:bg-brand-50',
  light: 'border border-white text-white hover:bg-white/10',
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

export function buttonClasses(variant: ButtonVariant = 'primary'): string {
  return `inline-flex items-center justify-center gap-2 rounded-lg px-5 py-3 text-base font-semibold transition ${VARIANTS[variant]}`;
}

/** A link that looks like a button: internal paths use the router, tel:, mailto: and http links do not. */
export function ButtonLink({ to, variant = 'primary', children }: { to: string; variant?: ButtonVariant; children: ReactNode }) {
  if (/^(tel:|mailto:|https?:)/.test(to)) {
    return (
      <a href={to} className={buttonClasses(variant)}>
        {children}
      </a>
    );
  }
  return (
    <Link to={to} className={buttonClasses(variant)}>
      {children}
    </Link>
  );
}
