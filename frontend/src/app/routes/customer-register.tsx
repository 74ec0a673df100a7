import { CustomerAuthPage } from '../../features/customer-auth/components/customer-auth-page';

export default function CustomerRegisterRoute() {
  return <CustomerAuthPage initialTab="register" />;
}
