/**
 * An email's HTML as it was sent. A sandboxed iframe with no permissions: no scripts run, no forms submit, and
 * the content cannot reach this page (it gets an opaque origin), whatever the stored HTML holds.
 */
export function EmailContentFrame({ html, title }: { html: string; title: string }) {
  return (
    <iframe
      title={title}
      sandbox=""
      srcDoc={html}
      referrerPolicy="no-referrer"
      className="h-[28rem] w-full rounded-lg border border-slate-300 bg-white"
    />
  );
}
