import { isHtmlFileName, marketingFormSchema, parseEmailList, testSmtpSchema } from '@ppr/contracts';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Field, Input, Textarea } from '../../../../components/ui/form';
import { ApiRequestError } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { fieldErrors } from '../../lib/form-errors';
import { useSendMarketingEmail } from '../api/send-marketing-email';
import { useSendTestMarketingEmail } from '../api/send-test-marketing-email';
import { useTestSmtp } from '../api/test-smtp';
import { contentSize, formatKilobytes } from '../lib/content-size';
import { saveLastCampaign, type LastCampaign } from '../lib/last-campaign';

interface Values {
  subject: string;
  emailList: string;
  content: string;
}
type FieldName = keyof Values | 'testEmail';

export function MarketingCompose({ initial, onSent }: { initial?: Values | undefined; onSent: (campaign: LastCampaign) => void }) {
  const [values, setValues] = useState<Values>(initial ?? { subject: '', emailList: '', content: '' });
  const [testEmail, setTestEmail] = useState('');
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const fileRef = useRef<HTMLInputElement>(null);
  const send = useSendMarketingEmail();
  const sendTest = useSendTestMarketingEmail();
  const smtp = useTestSmtp();
  const size = contentSize(values.content);
  const recipients = parseEmailList(values.emailList).length;

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    if (!isHtmlFileName(file.name)) {
      toast({ title: 'Invalid file type', description: 'Please choose an .html or .htm file.', variant: 'destructive' });
      event.target.value = '';
      return;
    }
    const content = await file.text();
    setValues((current) => ({ ...current, content }));
  };

  /** Validates the given fields; on failure shows the messages, focuses the first, and says no. */
  const check = (extra: Partial<Record<FieldName, string>>, base: Partial<Record<FieldName, string>>): boolean => {
    const found = { ...base, ...extra };
    setErrors(found);
    const first = (['subject', 'emailList', 'content', 'testEmail'] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(`marketing-${first}`)?.focus();
      return false;
    }
    if (size.tooLarge) {
      toast({
        title: 'Email content too large',
        description: `The content is ${formatKilobytes(size.bytes)}; the limit is 2000 KB.`,
        variant: 'destructive',
      });
      return false;
    }
    return true;
  };

  const onSend = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = marketingFormSchema.safeParse(values);
    if (!check({}, parsed.success ? {} : fieldErrors<keyof Values>(parsed.error))) return;
    const emails = parseEmailList(values.emailList);
    send.mutate(
      { subject: values.subject.trim(), content: values.content, emails },
      {
        onSuccess: (answer) => {
          toast({
            title: answer.imagesRemoved ? 'Large images removed' : 'Campaign Started',
            description: `Sending to ${answer.total} recipient${answer.total === 1 ? '' : 's'} in batches of ${answer.batchSize}.`,
          });
          onSent(
            saveLastCampaign({
              subject: values.subject.trim(),
              content: values.content,
              contentSize: answer.contentBytes,
              sentAt: new Date().toISOString(),
              recipients: answer.total,
              success: answer.success,
              failed: answer.failed,
              campaignId: answer.campaignId,
            }),
          );
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && error.status === 413) {
            toast({
              title: 'Email content too large',
              description: serverMessageOr(error, 'The limit is 2000 KB.'),
              variant: 'destructive',
            });
          } else {
            toast({
              title: 'Failed to send marketing emails',
              description: serverMessageOr(error, 'All email sending attempts failed. Please try with a smaller email template.'),
              variant: 'destructive',
            });
          }
        },
      },
    );
  };

  const testAddressError = (): Partial<Record<FieldName, string>> => {
    const parsed = testSmtpSchema.safeParse({ testEmail });
    return parsed.success ? {} : { testEmail: parsed.error.issues[0]?.message ?? 'Please enter a valid email address' };
  };

  const onSendTest = () => {
    const parsed = marketingFormSchema.pick({ subject: true, content: true }).safeParse(values);
    if (!check(testAddressError(), parsed.success ? {} : fieldErrors<keyof Values>(parsed.error))) return;
    sendTest.mutate(
      { subject: values.subject.trim(), content: values.content, testEmail: testEmail.trim() },
      {
        onSuccess: (answer) =>
          toast({ title: answer.imagesRemoved ? 'Large images removed' : 'Test Email Sent', description: answer.message }),
        onError: (error) =>
          toast({
            title: 'Test Email Failed',
            description: serverMessageOr(error, 'Failed to send the test email'),
            variant: 'destructive',
          }),
      },
    );
  };

  const onTestSmtp = () => {
    const found = testAddressError();
    setErrors(found);
    if (found.testEmail) {
      document.getElementById('marketing-testEmail')?.focus();
      return;
    }
    smtp.mutate(
      { testEmail: testEmail.trim() },
      {
        onSuccess: (answer) => toast({ title: 'SMTP Test Successful', description: answer.message }),
        onError: (error) =>
          toast({
            title: 'SMTP Test Failed',
            description: serverMessageOr(error, 'Could not reach the mail server'),
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <form noValidate onSubmit={onSend} aria-label="Compose marketing email" className="space-y-4">
      <Field label="Subject" id="marketing-subject" error={errors.subject} required>
        <Input
          name="subject"
          maxLength={300}
          value={values.subject}
          onChange={(event) => setValues({ ...values, subject: event.target.value })}
        />
      </Field>
      <Field
        label="Email list"
        id="marketing-emailList"
        error={errors.emailList}
        hint={`Separate addresses with spaces, commas, semicolons or new lines. ${recipients} valid address${recipients === 1 ? '' : 'es'}.`}
        required
      >
        <Textarea
          name="emailList"
          rows={4}
          value={values.emailList}
          onChange={(event) => setValues({ ...values, emailList: event.target.value })}
        />
      </Field>
      <Field
        label="Email content (HTML)"
        id="marketing-content"
        error={errors.content}
        hint={`${formatKilobytes(size.bytes)}; sent in batches of ${size.batchSize}.`}
        required
      >
        <Textarea
          name="content"
          rows={10}
          className="font-mono text-sm"
          value={values.content}
          onChange={(event) => setValues({ ...values, content: event.target.value })}
        />
      </Field>
      {size.tooLarge ? (
        <p role="alert" className="rounded-lg border border-red-700 bg-red-50 p-3 text-red-800">
          Email content too large: {formatKilobytes(size.bytes)} is over the 2000 KB limit.
        </p>
      ) : size.warning ? (
        <p className="rounded-lg border border-amber-600 bg-amber-50 p-3 text-amber-900">
          Large email: {formatKilobytes(size.bytes)} is over 1000 KB. Embedded images will be removed, and some mail providers may refuse
          it.
        </p>
      ) : size.imagesRemoved ? (
        <p className="rounded-lg border border-amber-600 bg-amber-50 p-3 text-amber-900">
          Over 500 KB: embedded base64 images will be removed before sending.
        </p>
      ) : null}
      <div>
        <label htmlFor="marketing-file" className="block text-sm font-semibold text-slate-900">
          Upload an HTML file
        </label>
        <input
          ref={fileRef}
          id="marketing-file"
          type="file"
          accept=".html,.htm,text/html"
          onChange={(event) => void onFile(event)}
          className="mt-1 block w-full text-sm text-slate-900 file:mr-3 file:rounded-lg file:border file:border-slate-400 file:bg-white file:px-3 file:py-1.5 file:font-semibold"
        />
      </div>
      <div className="grid gap-3 rounded-lg border border-slate-200 p-4 sm:grid-cols-[1fr_auto_auto] sm:items-end">
        <Field label="Test email address" id="marketing-testEmail" error={errors.testEmail}>
          <Input type="email" name="testEmail" value={testEmail} onChange={(event) => setTestEmail(event.target.value)} />
        </Field>
        <button type="button" onClick={onSendTest} disabled={sendTest.isPending} className={adminButton.secondary}>
          {sendTest.isPending ? 'Sending...' : 'Send Test Email'}
        </button>
        <button type="button" onClick={onTestSmtp} disabled={smtp.isPending} className={adminButton.secondary}>
          {smtp.isPending ? 'Testing...' : 'Test SMTP'}
        </button>
      </div>
      <button type="submit" disabled={send.isPending || size.tooLarge} className={adminButton.primary}>
        {send.isPending ? 'Starting...' : 'Send Campaign'}
      </button>
    </form>
  );
}
