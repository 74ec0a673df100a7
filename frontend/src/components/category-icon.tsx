import { Cloud, HardDrive, Mail, Monitor, Network, Settings, Shield, Users, Wrench, type LucideIcon } from 'lucide-react';

const ICONS: Readonly<Record<string, LucideIcon>> = {
  monitor: Monitor,
  users: Users,
  mail: Mail,
  cloud: Cloud,
  shield: Shield,
  network: Network,
  settings: Settings,
  'hard-drive': HardDrive,
  wrench: Wrench,
};

/** Draws the icon a service category names; unknown names fall back to the wrench. */
export function CategoryIcon({ name, className }: { name: string; className?: string }) {
  const Icon = ICONS[name] ?? Wrench;
  return <Icon aria-hidden="true" focusable="false" className={className ?? 'h-6 w-6'} />;
}
