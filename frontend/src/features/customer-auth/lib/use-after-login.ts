import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';

/** SPEC section 9: a successful login moves on after 200 ms (long enough to read the toast). */
export const AFTER_LOGIN_DELAY_MS = 200;

/** Returns `go(path)`: navigates there after the post-login delay; the timer dies with the component. */
export function useAfterLogin(): (path: string) => void {
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (path: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void navigate(path, { replace: true });
    }, AFTER_LOGIN_DELAY_MS);
  };
}
