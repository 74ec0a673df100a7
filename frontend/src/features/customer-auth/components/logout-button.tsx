import { LogOut } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { toast } from '../../../lib/toast';
import { useLogout } from '../api/logout';

export function LogoutButton({ className }: { className?: string }) {
  const logout = useLogout();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      disabled={logout.isPending}
      onClick={() =>
        logout.mutate(undefined, {
          onSuccess: ({ message }) => toast({ title: 'Logged out', description: message }),
          // Whatever the server said, this browser forgets the customer and leaves the private pages.
          onSettled: () => void navigate(paths.customerLogin.getHref(), { replace: true }),
        })
      }
      className={
        className ??
        'inline-flex items-center gap-2 rounded-lg border border-slate-400 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-70'
      }
    >
      <LogOut aria-hidden="true" className="h-4 w-4" />
      {logout.isPending ? 'Logging out...' : 'Log Out'}
    </button>
  );
}
