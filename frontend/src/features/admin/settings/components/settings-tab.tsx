import type { ReactNode } from 'react';
import { AdminSection } from '../../components/admin-section';
import { EngineersPanel } from '../../engineers/components/engineers-panel';
import { ChangePasswordForm } from './change-password-form';
import { ProjectionsPanel } from './projections-panel';

/** Settings: the admin's password, the engineers, the read models' status and the contact messages. */
export function SettingsTab({ contactMessages }: { contactMessages?: ReactNode }) {
  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-bold text-slate-900">Settings</h2>
      <AdminSection id="settings-password" title="Change Password">
        <ChangePasswordForm />
      </AdminSection>
      <AdminSection id="settings-engineers" title="Engineers">
        <EngineersPanel />
      </AdminSection>
      <AdminSection id="settings-projections" title="Projection Status">
        <ProjectionsPanel />
      </AdminSection>
      {contactMessages ? (
        <AdminSection id="settings-contact" title="Contact Messages">
          {contactMessages}
        </AdminSection>
      ) : null}
    </div>
  );
}
