import type { ReactNode } from 'react';
import { EngineersPanel } from '../../engineers/components/engineers-panel';
import { ChangePasswordForm } from './change-password-form';
import { ProjectionsPanel } from './projections-panel';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 bg-white p-5">
      <h3 id={id} className="text-xl font-bold text-slate-900">
        {title}
      </h3>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** Settings: the admin's password, the engineers, the read models' status and the contact messages. */
export function SettingsTab({ contactMessages }: { contactMessages?: ReactNode }) {
  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-bold text-slate-900">Settings</h2>
      <Section id="settings-password" title="Change Password">
        <ChangePasswordForm />
      </Section>
      <Section id="settings-engineers" title="Engineers">
        <EngineersPanel />
      </Section>
      <Section id="settings-projections" title="Projection Status">
        <ProjectionsPanel />
      </Section>
      {contactMessages ? (
        <Section id="settings-contact" title="Contact Messages">
          {contactMessages}
        </Section>
      ) : null}
    </div>
  );
}
