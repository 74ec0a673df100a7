import { Bug, Database, HardDrive, Laptop, Monitor, Cpu } from 'lucide-react';

/** The six fixed computer-repair cards of the Silver Spring and Rockville pages. */
const REPAIR_CARDS = [
  {
    icon: Laptop,
    title: 'Laptop Repair',
    text: 'Cracked screens, worn keyboards, dead batteries, broken hinges and charging ports on Dell, HP, Lenovo, Surface and more.',
  },
  {
    icon: Monitor,
    title: 'Desktop Repair',
    text: 'Power supply, motherboard and graphics card faults diagnosed and fixed, at your home, your office or our bench.',
  },
  {
    icon: Bug,
    title: 'Virus & Malware Removal',
    text: 'Pop-ups, browser hijackers, ransomware warnings and fake antivirus removed, then protection set up so they stay gone.',
  },
  {
    icon: Database,
    title: 'Data Recovery',
    text: 'Photos, documents and mailboxes recovered from failing hard drives, SSDs, memory cards and accidentally deleted folders.',
  },
  {
    icon: Cpu,
    title: 'Upgrades & Tune-Ups',
    text: 'SSD and memory upgrades, clean Windows installs and start-up clean-ups that make older computers feel new again.',
  },
  {
    icon: HardDrive,
    title: 'Backup & New PC Setup',
    text: 'New computers set up with your files, email and printers moved over, and automatic backups switched on.',
  },
];

export function RepairCards({ place }: { place: string }) {
  return (
    <section aria-labelledby="repair-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h2 id="repair-heading" className="text-2xl font-bold text-slate-900">
        Computer repairs we handle in {place}
      </h2>
      <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {REPAIR_CARDS.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <Icon aria-hidden="true" className="h-8 w-8 text-brand-700" />
            <h3 className="mt-3 text-lg font-semibold text-slate-900">{title}</h3>
            <p className="mt-2 text-sm text-slate-700">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
