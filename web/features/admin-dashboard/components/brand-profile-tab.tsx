import { BrandProfileForm } from '../../../app/organization/brand-profile-form';
import { SectionHeader } from './section-header';

/** PRODUCT "Brand Profile": the very form of Workspace Settings' Branding tab, not a copy of it. */
export function BrandProfileTab() {
  return (
    <div className="grid gap-6">
      <SectionHeader title="Brand Profile" description="Customize tone, language rules, and disclaimers." />
      <BrandProfileForm className="max-w-2xl" />
    </div>
  );
}
