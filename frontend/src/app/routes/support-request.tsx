import { useNavigate } from 'react-router-dom';
import { PageHero } from '../../components/page-hero';
import { savePendingTicket } from '../../features/payment/pending-ticket';
import { StepIndicator } from '../../features/support-request/components/step-indicator';
import { SupportRequestForm, type CreatedRequest } from '../../features/support-request/components/support-request-form';
import { toast } from '../../lib/toast';

const REQUEST_STEPS = ['Request', 'Payment', 'Confirmation'] as const;

export default function SupportRequestRoute() {
  const navigate = useNavigate();
  const onCreated = ({ id, request }: CreatedRequest) => {
    savePendingTicket(id, {
      businessName: request.businessName,
      contactName: request.contactName,
      serviceCategory: request.serviceCategory,
      email: request.email,
    });
    toast({ title: 'Redirecting to payment' });
    void navigate('/payment');
  };
  return (
    <>
      <PageHero
        title="Request IT Support"
        lead="Tell us about the problem. After the $49 diagnostic fee a certified Systems Engineer contacts you immediately or within 1 hour."
      />
      <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
        <StepIndicator steps={REQUEST_STEPS} current={0} />
        <SupportRequestForm onCreated={onCreated} />
      </div>
    </>
  );
}
