/** The choices of the Create token dialog; the API accepts any 1–365 days, or null for a token that never expires. */
export const EXPIRY_OPTIONS = [
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: '365', label: '365 days', days: 365 },
  { value: 'never', label: 'No expiry', days: null },
] as const;

export function expiryOptionValue(days: number | null | undefined): string {
  return EXPIRY_OPTIONS.find((option) => option.days === (days ?? null))?.value ?? 'never';
}

export function expiryDaysOf(value: string): number | null {
  return EXPIRY_OPTIONS.find((option) => option.value === value)?.days ?? null;
}
