import { BUSINESS_PROFILE } from '@ppr/contracts';
import { Menu, Phone, X } from 'lucide-react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { paths } from '../../config/paths';

export const NAV_ITEMS: readonly { readonly label: string; readonly to: string }[] = [
  { label: 'Home', to: paths.home.getHref() },
  { label: 'Services', to: paths.services.getHref() },
  { label: 'About Us', to: paths.about.getHref() },
  { label: 'Support', to: paths.supportRequestSteps.getHref() },
  { label: 'Contact', to: paths.contact.getHref() },
  { label: 'My Account', to: paths.customerLogin.getHref() },
];

function navClass({ isActive }: { isActive: boolean }): string {
  return `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'}`;
}

/**
 * Keeps --site-header-height on the root element at the sticky header's height, so that index.css keeps what
 * the browser scrolls into view (a control reached with Shift+Tab, a fragment target) out from under the header
 * (WCAG 2.4.11). The header grows when its text wraps (zoom, wider text spacing) and when the menu opens.
 */
function useStickyHeaderHeight(headerRef: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const header = headerRef.current;
    if (!header || typeof ResizeObserver === 'undefined') return undefined;
    const root = document.documentElement;
    const update = () => root.style.setProperty('--site-header-height', `${Math.ceil(header.getBoundingClientRect().height)}px`);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(header);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--site-header-height');
    };
  }, [headerRef]);
}

export function SiteHeader() {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  // The mobile menu is open at one location only: navigating anywhere closes it, with no effect to run.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === here;
  const setOpen = (next: boolean) => setOpenAt(next ? here : null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const headerRef = useRef<HTMLElement>(null);
  useStickyHeaderHeight(headerRef);

  useEffect(() => {
    if (!open) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpenAt(null);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return (
    <header ref={headerRef} className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <Link to={paths.home.getHref()} className="flex items-center gap-2 text-lg font-bold text-brand-900">
          <img src="/favicon.svg" alt="" width={32} height={32} className="h-8 w-8" />
          <span>{BUSINESS_PROFILE.name}</span>
        </Link>
        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {NAV_ITEMS.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === paths.home.getHref()} className={navClass}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="hidden items-center gap-3 lg:flex">
          <a href={`tel:${BUSINESS_PROFILE.phoneE164}`} className="flex items-center gap-1 text-sm font-semibold text-brand-800">
            <Phone aria-hidden="true" className="h-4 w-4" />
            {BUSINESS_PROFILE.phone}
          </a>
          <Link
            to={paths.supportRequest.getHref()}
            className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 forced-colors:border"
          >
            Get IT Support
          </Link>
        </div>
        <button
          ref={toggleRef}
          type="button"
          className="rounded-md p-2 text-slate-800 hover:bg-slate-100 lg:hidden"
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpen(!open)}
        >
          {open ? <X aria-hidden="true" className="h-6 w-6" /> : <Menu aria-hidden="true" className="h-6 w-6" />}
          <span className="sr-only">{open ? 'Close menu' : 'Open menu'}</span>
        </button>
      </div>
      <nav id="mobile-menu" aria-label="Mobile" hidden={!open} className="border-t border-slate-200 bg-white lg:hidden">
        <ul className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3 sm:px-6">
          {NAV_ITEMS.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.to === paths.home.getHref()} className={(state) => `block ${navClass(state)}`}>
                {item.label}
              </NavLink>
            </li>
          ))}
          <li className="pt-2">
            <Link
              to={paths.supportRequest.getHref()}
              className="block rounded-lg bg-brand-700 px-4 py-2 text-center font-semibold text-white forced-colors:border"
            >
              Get IT Support
            </Link>
          </li>
          <li>
            <a href={`tel:${BUSINESS_PROFILE.phoneE164}`} className="block px-3 py-2 text-center font-semibold text-brand-800">
              Call {BUSINESS_PROFILE.phone}
            </a>
          </li>
        </ul>
      </nav>
    </header>
  );
}
