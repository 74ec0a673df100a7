import { AdminDashboard } from '../../features/admin/dashboard/components/admin-dashboard';

/** /admin and /admin/dashboard. */
export default function AdminDashboardRoute() {
  return <AdminDashboard />;
}
