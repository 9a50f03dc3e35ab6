import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { z } from 'zod';
import { DEFAULT_BRAND_NAME } from '../../../../common/constants';
import {
  BrandName,
  OrganizationName,
  OrganizationSlug,
  type OrganizationView,
} from '../../../../common/schemas/organizations';
import { useUpdateOrganization } from '../../../app/organization/update-organization';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { TextField } from '../../../components/ui/text-field';
import { toast, toastError } from '../../../components/ui/use-toast';
import { isApiRequestError } from '../../../lib/api';
import { useCurrentOrganization } from '../../../app/organization/get-current-organization';
import { SectionHeader } from './section-header';

/** The Organization section's form: the same rules the server applies to these three fields. */
const OrganizationFormValues = z.object({
  brandName: BrandName,
  name: OrganizationName,
  slug: OrganizationSlug,
});
type OrganizationFormValues = z.infer<typeof OrganizationFormValues>;

const formValues = (org: OrganizationView): OrganizationFormValues => ({
  brandName: org.brandName ?? '',
  name: org.name,
  slug: org.slug,
});

function OrganizationForm({ organization }: { organization: OrganizationView }) {
  const update = useUpdateOrganization();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm({ resolver: zodResolver(OrganizationFormValues), defaultValues: formValues(organization) });

  const onSubmit = handleSubmit((values) => {
    update.mutate(
      { name: values.name, brandName: values.brandName || null, slug: values.slug },
      {
        onSuccess: (saved) => {
          reset(formValues(saved));
          toast({ title: 'Organization settings updated successfully', variant: 'success' });
        },
        onError: (error) => {
          // A slug another organization holds is fixed in the slug box.
          if (isApiRequestError(error) && error.status === 409) {
            setError('slug', { message: error.message }, { shouldFocus: true });
            return;
          }
          toastError(error, 'Failed to update organization');
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid max-w-xl gap-5">
      <TextField
        label="Application Brand Name"
        placeholder={DEFAULT_BRAND_NAME}
        hint="Appears as the logo and title in the sidebar. Leave empty for the default."
        error={errors.brandName?.message}
        {...register('brandName')}
      />
      <TextField label="Organization Name" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Organization Slug"
        autoComplete="off"
        spellCheck={false}
        hint="Used for URLs and identification: lower-case letters, digits and hyphens, unique across Verity."
        error={errors.slug?.message}
        className="[&_input]:font-mono"
        {...register('slug')}
      />
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={update.isPending || !isDirty}>
          {update.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          Save Changes
        </Button>
        {isDirty && (
          <Button variant="ghost" onClick={() => reset(formValues(organization))} disabled={update.isPending}>
            Discard
          </Button>
        )}
      </div>
    </form>
  );
}

/** PRODUCT "Organization": brand name, organization name and slug, saved together. */
export function OrganizationTab() {
  const organization = useCurrentOrganization();
  return (
    <div className="grid gap-6">
      <SectionHeader
        title="Organization"
        description="Your organization's name, the brand shown in the app and its slug."
      />
      {organization.isPending ? (
        <p className="py-8 text-center text-sm text-muted-foreground" role="status">
          Loading organization...
        </p>
      ) : organization.isError ? (
        <LoadError
          error={organization.error}
          fallback="Could not load the organization."
          onRetry={() => void organization.refetch()}
        />
      ) : (
        <OrganizationForm organization={organization.data} />
      )}
    </div>
  );
}
