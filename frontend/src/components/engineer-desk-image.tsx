import engineerDesk from '../assets/engineer-desk.svg';

/** The repaired-workstation illustration used on the home and about pages (sized, lazy). */
export function EngineerDeskImage({ className }: { readonly className: string }) {
  return (
    <img
      src={engineerDesk}
      alt="Illustration of a repaired workstation with a green check mark"
      width={480}
      height={320}
      loading="lazy"
      decoding="async"
      className={className}
    />
  );
}
