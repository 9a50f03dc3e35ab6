import type { SsoSettingsView, UpdateSsoInput } from '../../../common/schemas/sso';

/** The SSO form's values: the schema's input (its defaults are for API callers; the form always fills them). */
export type SsoFormValues = UpdateSsoInput;

export function ssoFormValues(settings: SsoSettingsView): SsoFormValues {
  return {
    issuer: settings.issuer ?? '',
    clientId: settings.clientId ?? '',
    // The stored secret never comes back: the box is for a new one only.
    clientSecret: '',
    domains: settings.domains,
    defaultRole: settings.defaultRole,
    groupsClaim: settings.groupsClaim,
    groupRoles: settings.groupRoles,
    ssoRequired: settings.ssoRequired,
    breakGlassUserId: settings.breakGlassUserId,
  };
}
