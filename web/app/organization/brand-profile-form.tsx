import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Lock } from 'lucide-react';
import { BRAND_TONES } from '../../../common/constants';
import { BRAND_PROFILE_LIMITS, BrandProfile, type OrganizationView } from '../../../common/schemas/organizations';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { SaveChangesBar } from '../../components/ui/save-changes-bar';
import { Field } from '../../components/ui/field';
import { LoadError } from '../../components/ui/load-error';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Spinner } from '../../components/ui/spinner';
import { TextareaField } from '../../components/ui/textarea-field';
import { toast, toastError } from '../../components/ui/use-toast';
import { cn } from '../../lib/cn';
import { formatLabel, formatNumber } from '../../lib/format';
import { useCan } from '../me/use-can';
import { useCurrentOrganization } from './get-current-organization';
import { TokenListInput } from '../../components/ui/token-list-input';
import { useUpdateOrganization } from './update-organization';

export interface BrandProfileFormProps {
  /** Called after a successful save, e.g. to close a surrounding dialog. */
  onSaved?: (organization: OrganizationView) => void;
  className?: string;
}

/**
 * PRODUCT "Workspace Settings" Branding: tone, language rules, content guidelines (boilerplate), disclaimers and banned
 * tokens, saved in the organization's brand profile. Self-contained — it reads the current organization and saves
 * through PUT /api/organizations/current — so any screen can render it (Workspace Settings, the Admin Dashboard).
 * Without the `organization:update` permission it shows the profile read-only.
 */
export function BrandProfileForm({ onSaved, className }: BrandProfileFormProps) {
  const organization = useCurrentOrganization();
  if (organization.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Loading brand profile" />
      </div>
    );
  }
  if (organization.isError) {
    return (
      <LoadError
        error={organization.error}
        fallback="Could not load the brand profile."
        onRetry={() => void organization.refetch()}
        className={className}
      />
    );
  }
  // Keyed so the form starts again from the stored profile if the organization changes underneath.
  return (
    <BrandProfileFields
      key={organization.data.id}
      profile={organization.data.brandProfile}
      onSaved={onSaved}
      className={className}
    />
  );
}

function counter(value: string | undefined, max: number): string {
  return `${formatNumber(value?.length ?? 0)}/${formatNumber(max)} characters`;
}

function BrandProfileFields({
  profile,
  onSaved,
  className,
}: {
  profile: BrandProfile;
  onSaved?: (organization: OrganizationView) => void;
  className?: string;
}) {
  const canEdit = useCan('organization:update');
  const mutation = useUpdateOrganization();
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm({ resolver: zodResolver(BrandProfile), defaultValues: profile });
  const [languageRules, boilerplate, disclaimers] = useWatch({
    control,
    name: ['languageRules', 'boilerplate', 'disclaimers'],
  });

  const onSubmit = handleSubmit((brandProfile) => {
    mutation.mutate(
      { brandProfile },
      {
        onSuccess: (organization) => {
          reset(organization.brandProfile);
          toast({ title: 'Organization settings updated successfully', variant: 'success' });
          onSaved?.(organization);
        },
        onError: (error) => {
          toastError(error, 'Failed to update organization');
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className={cn('grid gap-5', className)}>
      {!canEdit && (
        <Alert variant="info">
          <Lock aria-hidden />
          <AlertDescription>Only admins can change the brand profile.</AlertDescription>
        </Alert>
      )}
      <Field label="Tone" id="brand-tone" hint="How answers written for you should sound." className="sm:max-w-xs">
        {(ids) => (
          <Controller
            control={control}
            name="tone"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange} disabled={!canEdit}>
                <SelectTrigger {...ids} onBlur={field.onBlur}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {BRAND_TONES.map((tone) => (
                    <SelectItem key={tone} value={tone}>
                      {formatLabel(tone)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        )}
      </Field>
      <TextareaField
        label="Language Rules"
        rows={4}
        placeholder="Use British spelling. Say “customer data”, never “user data”."
        hint={`Spelling, terminology and phrasing rules. ${counter(languageRules, BRAND_PROFILE_LIMITS.languageRules)}`}
        error={errors.languageRules?.message}
        disabled={!canEdit}
        {...register('languageRules')}
      />
      <TextareaField
        label="Content Guidelines"
        rows={6}
        placeholder="Acme is a cloud platform for… Our security program is led by…"
        hint={`Approved boilerplate answers can draw on, such as your company and security program description. ${counter(boilerplate, BRAND_PROFILE_LIMITS.boilerplate)}`}
        error={errors.boilerplate?.message}
        disabled={!canEdit}
        {...register('boilerplate')}
      />
      <TextareaField
        label="Disclaimers"
        rows={3}
        placeholder="Answers are provided for information only and do not form part of any contract."
        hint={`Added to the end of every answer. ${counter(disclaimers, BRAND_PROFILE_LIMITS.disclaimers)}`}
        error={errors.disclaimers?.message}
        disabled={!canEdit}
        {...register('disclaimers')}
      />
      <Controller
        control={control}
        name="bannedTokens"
        render={({ field, fieldState }) => (
          <TokenListInput
            label="Banned Tokens"
            value={field.value ?? []}
            onChange={field.onChange}
            maxLength={BRAND_PROFILE_LIMITS.bannedTokenLength}
            maxCount={BRAND_PROFILE_LIMITS.bannedTokens}
            placeholder="e.g. guarantee"
            hint="Words or phrases never used in generated answers, matched as plain text, ignoring case. Press Enter to add."
            error={fieldState.error?.message}
            disabled={!canEdit}
          />
        )}
      />
      {canEdit && <SaveChangesBar dirty={isDirty} pending={mutation.isPending} onDiscard={() => reset()} />}
    </form>
  );
}
