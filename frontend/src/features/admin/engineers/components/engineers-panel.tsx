import { createEngineerSchema } from '@ppr/contracts';
import { useState, type FormEvent } from 'react';
import { Field, Input } from '../../../../components/ui/form';
import { Spinner } from '../../../../components/ui/spinner';
import { toast } from '../../../../lib/toast';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { fieldErrors } from '../../lib/form-errors';
import { useCreateEngineer } from '../api/create-engineer';
import { useEngineers } from '../api/get-engineers';
import { useUpdateEngineer } from '../api/update-engineer';

interface Values {
  name: string;
  email: string;
  specialty: string;
}
type FieldName = keyof Values;
const EMPTY: Values = { name: '', email: '', specialty: '' };

/** The engineers tickets are assigned to: add one, deactivate or reactivate. */
export function EngineersPanel() {
  const engineers = useEngineers();
  const create = useCreateEngineer();
  const update = useUpdateEngineer();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = createEngineerSchema.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors<FieldName>(parsed.error);
      setErrors(found);
      const first = (['name', 'email', 'specialty'] as const).find((field) => found[field]);
      if (first) document.getElementById(`engineer-${first}`)?.focus();
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (engineer) => {
        toast({ title: 'Engineer Added', description: `${engineer.name} can now be assigned to tickets` });
        setValues(EMPTY);
      },
      onError: (error) =>
        toast({ title: 'Update Failed', description: serverMessageOr(error, 'Failed to add the engineer'), variant: 'destructive' }),
    });
  };

  return (
    <div className="space-y-4">
      {engineers.isPending ? (
        <Spinner label="Loading engineers..." showLabel />
      ) : engineers.isError ? (
        <p role="alert" className="text-red-700">
          {serverMessageOr(engineers.error, 'Failed to load engineers. Please try again.')}
        </p>
      ) : engineers.data.length === 0 ? (
        <p className="text-slate-700">No engineers yet.</p>
      ) : (
        <ul aria-label="Engineers" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {engineers.data.map((engineer) => (
            <li key={engineer.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <div>
                <p className="font-semibold text-slate-900">
                  {engineer.name} {engineer.isActive ? null : <span className="text-sm font-normal text-slate-700">(inactive)</span>}
                </p>
                <p className="text-sm text-slate-700">
                  {engineer.email}
                  {engineer.specialty ? ` · ${engineer.specialty}` : ''}
                </p>
              </div>
              <button
                type="button"
                className={adminButton.small}
                disabled={update.isPending}
                onClick={() =>
                  update.mutate(
                    { engineerId: engineer.id, body: { isActive: !engineer.isActive } },
                    {
                      onError: (error) =>
                        toast({
                          title: 'Update Failed',
                          description: serverMessageOr(error, 'Failed to update the engineer'),
                          variant: 'destructive',
                        }),
                    },
                  )
                }
              >
                {engineer.isActive ? 'Deactivate' : 'Reactivate'}
                <span className="sr-only"> {engineer.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form noValidate onSubmit={onSubmit} aria-label="Add an engineer" className="grid gap-4 sm:grid-cols-3">
        <Field label="Name" id="engineer-name" error={errors.name} required>
          <Input name="name" value={values.name} onChange={(event) => setValues({ ...values, name: event.target.value })} />
        </Field>
        <Field label="Email" id="engineer-email" error={errors.email} required>
          <Input name="email" type="email" value={values.email} onChange={(event) => setValues({ ...values, email: event.target.value })} />
        </Field>
        <Field label="Specialty" id="engineer-specialty" error={errors.specialty}>
          <Input name="specialty" value={values.specialty} onChange={(event) => setValues({ ...values, specialty: event.target.value })} />
        </Field>
        <div>
          <button type="submit" disabled={create.isPending} className={adminButton.primary}>
            {create.isPending ? 'Adding...' : 'Add Engineer'}
          </button>
        </div>
      </form>
    </div>
  );
}
