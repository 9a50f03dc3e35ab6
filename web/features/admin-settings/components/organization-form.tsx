import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { DEFAULT_BRAND_NAME } from '../../../../common/constants';
import { BrandName, OrganizationName, type OrganizationView } from '../../../../common/schemas/organizations';
import { useUpdateOrganization } from '../../../app/organization/update-organization';
import { SaveChangesBar } from '../../../components/ui/save-changes-bar';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/text-field';
import { toast, toastError } from '../../../components/ui/use-toast';

const OrganizationFormValues = z.object({ name: OrganizationName, brandName: BrandName });
type OrganizationFormValues = z.infer<typeof OrganizationFormValues>;

const valuesOf = (organization: OrganizationView): OrganizationFormValues => ({
  name: organization.name,
  brandName: organization.brandName ?? '',
});

/** The specification Workspace Settings "Organization": the organization's name and the sidebar's brand label. */
export function OrganizationForm({ organization }: { organization: OrganizationView }) {
  const mutation = useUpdateOrganization();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm({ resolver: zodResolver(OrganizationFormValues), defaultValues: valuesOf(organization) });

  const onSubmit = handleSubmit((values) => {
    // An empty brand name goes back to the default label.
    mutation.mutate(
      { name: values.name, brandName: values.brandName || null },
      {
        onSuccess: (saved) => {
          reset(valuesOf(saved));
          toast({ title: 'Organization settings updated successfully', variant: 'success' });
        },
        onError: (error) => {
          toastError(error, 'Failed to update organization');
        },
      },
    );
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Organization</CardTitle>
        <CardDescription>How your organization is named across Verity.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-5">
          <TextField
            label="Organization Name"
            autoComplete="organization"
            error={errors.name?.message}
            hint="Shown under the brand name in the sidebar and in invitation e-mails."
            {...register('name')}
          />
          <TextField
            label="Brand Name"
            placeholder={DEFAULT_BRAND_NAME}
            error={errors.brandName?.message}
            hint={`The title at the top of the sidebar. Leave it empty to show '${DEFAULT_BRAND_NAME}'.`}
            {...register('brandName')}
          />
          <SaveChangesBar dirty={isDirty} pending={mutation.isPending} onDiscard={() => reset()} />
        </form>
      </CardContent>
    </Card>
  );
}
