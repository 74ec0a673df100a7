import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from '../../../../lib/toast';
import { adminButton } from '../../components/styles';

/**
 * A secret the server shows only once (an integration key, a webhook signing secret): read-only, selectable,
 * with a copy button, and a warning that it cannot be shown again.
 */
export function SecretReveal({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast({ title: 'Copied', description: `${label} copied to the clipboard` });
    } catch {
      toast({ title: 'Copy Failed', description: 'Select the text and copy it by hand', variant: 'destructive' });
    }
  };
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
        {label}
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={id}
          readOnly
          value={value}
          aria-describedby={`${id}-once`}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 rounded-lg border border-slate-400 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900"
        />
        <button type="button" className={adminButton.secondary} onClick={() => void onCopy()}>
          {copied ? <Check aria-hidden="true" className="h-4 w-4" /> : <Copy aria-hidden="true" className="h-4 w-4" />}
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p id={`${id}-once`} className="text-sm font-semibold text-amber-900">
        Save it now: it is shown only this once and cannot be retrieved later.
      </p>
    </div>
  );
}
