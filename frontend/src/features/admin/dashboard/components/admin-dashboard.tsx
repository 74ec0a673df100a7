import * as Tabs from '@radix-ui/react-tabs';
import { LogOut } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Spinner } from '../../../../components/ui/spinner';
import { paths } from '../../../../config/paths';
import { toast } from '../../../../lib/toast';
import { useAdminMe } from '../../auth/api/get-admin-me';
import { useLogoutAdmin } from '../../auth/api/logout-admin';
import { adminButton } from '../../components/styles';
import { ContactMessages } from '../../contact/components/contact-messages';
import { EmailsTab } from '../../emails/components/emails-tab';
import { IntegrationsTab } from '../../integrations/components/integrations-tab';
import { TicketEmails } from '../../emails/components/ticket-emails';
import { MarketingTab } from '../../marketing/components/marketing-tab';
import { SettingsTab } from '../../settings/components/settings-tab';
import { TicketsTab } from '../../tickets/components/tickets-tab';

const TABS = [
  { value: 'tickets', label: 'Support Tickets' },
  { value: 'emails', label: 'Email Notifications' },
  { value: 'marketing', label: 'Marketing' },
  { value: 'settings', label: 'Settings' },
  { value: 'integrations', label: 'Integrations' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

function TabPanel({ value, children }: { value: TabValue; children: ReactNode }) {
  return (
    <Tabs.Content value={value} className="mt-6 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700">
      {children}
    </Tabs.Content>
  );
}

/**
 * The admin dashboard: checks the admin session on load (SPEC section 2), and sends anyone without one to
 * the login screen with 'Authentication Failed'; a 401 later, in the ticket list, is 'Session Expired'.
 */
export function AdminDashboard() {
  const navigate = useNavigate();
  const me = useAdminMe();
  const logout = useLogoutAdmin();
  const [tab, setTab] = useState<TabValue>('tickets');
  const leaving = useRef(false);

  const leave = useCallback(
    (title: string, description: string) => {
      if (leaving.current) return;
      leaving.current = true;
      toast({ title, description, variant: 'destructive' });
      void navigate(paths.adminLogin.getHref(), { replace: true });
    },
    [navigate],
  );

  useEffect(() => {
    if (me.isError) leave('Authentication Failed', 'Please log in to access the admin dashboard');
  }, [me.isError, leave]);

  const onSessionExpired = useCallback(() => leave('Session Expired', 'Please log in to access the admin dashboard'), [leave]);

  const onLogout = () => {
    logout.mutate(undefined, {
      onSettled: () => {
        leaving.current = true;
        toast({ title: 'Logged out', description: 'You have been logged out' });
        void navigate(paths.adminLogin.getHref(), { replace: true });
      },
    });
  };

  if (!me.data) {
    return (
      <div className="mx-auto max-w-6xl px-4 py-24 text-center">
        <Spinner label="Checking your session..." showLabel />
      </div>
    );
  }

  return (
    <section className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">Admin Dashboard</h1>
          <p className="mt-1 text-slate-700">Signed in as {me.data.username}</p>
        </div>
        <button type="button" onClick={onLogout} disabled={logout.isPending} className={adminButton.secondary}>
          <LogOut aria-hidden="true" className="h-4 w-4" />
          Log Out
        </button>
      </div>
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as TabValue)} className="mt-8">
        <Tabs.List aria-label="Admin sections" className="flex flex-wrap gap-1 border-b border-slate-300">
          {TABS.map((item) => (
            <Tabs.Trigger
              key={item.value}
              value={item.value}
              className="-mb-px rounded-t-lg border border-transparent px-4 py-2 font-semibold text-slate-700 hover:text-slate-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700 data-[state=active]:border-slate-300 data-[state=active]:border-b-white data-[state=active]:bg-white data-[state=active]:text-brand-800"
            >
              {item.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <TabPanel value="tickets">
          <TicketsTab onSessionExpired={onSessionExpired} renderTicketEmails={(ticket) => <TicketEmails ticketId={ticket.id} />} />
        </TabPanel>
        <TabPanel value="emails">
          <EmailsTab />
        </TabPanel>
        <TabPanel value="marketing">
          <MarketingTab />
        </TabPanel>
        <TabPanel value="settings">
          <SettingsTab contactMessages={<ContactMessages />} />
        </TabPanel>
        <TabPanel value="integrations">
          <IntegrationsTab />
        </TabPanel>
      </Tabs.Root>
    </section>
  );
}
