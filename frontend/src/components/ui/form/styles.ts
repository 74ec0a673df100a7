/** Same look as the contact form, shared by every control so all forms of the site match. */
export const controlClass =
  'mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 aria-[invalid=true]:border-red-700 disabled:cursor-not-allowed disabled:bg-slate-100';
