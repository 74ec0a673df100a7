/** Buttons of the admin screens: compact, with a visible focus ring for keyboard use. */
const base =
  'inline-flex items-center justify-center gap-1.5 rounded-lg font-semibold transition focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:opacity-60';

export const adminButton = {
  primary: `${base} bg-brand-700 px-4 py-2 text-white hover:bg-brand-800`,
  secondary: `${base} border border-slate-400 bg-white px-4 py-2 text-slate-900 hover:bg-slate-50`,
  danger: `${base} bg-red-700 px-4 py-2 text-white hover:bg-red-800`,
  small: `${base} border border-slate-400 bg-white px-2.5 py-1 text-sm text-slate-900 hover:bg-slate-50`,
} as const;
