import { CustomerAuthPage } from '../../features/customer-auth/components/customer-auth-page';

export default function CustomerLoginRoute() {
  return <CustomerAuthPage initialTab="login" />;
}
