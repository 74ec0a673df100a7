import { LogoutButton } from '../../features/customer-auth/components/logout-button';
import { ProtectedRoute } from '../../features/customer-auth/components/protected-route';
import { VerifyEmailNotice } from '../../features/customer-auth/components/verify-email-notice';
import { CustomerDashboard } from '../../features/customer-dashboard/components/customer-dashboard';

export default function CustomerDashboardRoute() {
  return (
    <ProtectedRoute>
      {(customer) => (
        <CustomerDashboard
          customer={customer}
          actions={<LogoutButton />}
          notice={customer.emailVerified ? null : <VerifyEmailNotice customer={customer} />}
        />
      )}
    </ProtectedRoute>
  );
}
