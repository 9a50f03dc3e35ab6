const numberFormat = new Intl.NumberFormat('en-US');
const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

/** 'Mar 4, 2025'; an unparsable value gives an empty string rather than 'Invalid Date'. */
export function formatDate(value: string | number | Date): string {
  const date = toDate(value);
  return date ? dateFormat.format(date) : '';
}

export function formatDateTime(value: string | number | Date): string {
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : '';
}

export function formatPercent(value: number): string {
  return `${String(Math.round(value))}%`;
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** PRODUCT §12 file size units: Bytes, KB, MB, GB. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  const rounded = exponent === 0 ? value : Math.round(value * 100) / 100;
  return `${String(rounded)} ${SIZE_UNITS[exponent] ?? 'GB'}`;
}

/** 'super_admin' → 'Super Admin'. */
export function formatLabel(value: string): string {
  return value
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** First and last name as one, leaving out the missing ones; '' when there is neither. */
export function fullName(person: { firstName?: string | null; lastName?: string | null }): string {
  return [person.firstName, person.lastName].filter(Boolean).join(' ');
}

/**
 * PRODUCT §3 initials: first letters of first and last name; else the uppercased first letter of the username;
 * else 'U'.
 */
export function initials(person: {
  firstName?: string | null;
  lastName?: string | null;
  username?: string | null;
}): string {
  const first = person.firstName?.trim().charAt(0) ?? '';
  const last = person.lastName?.trim().charAt(0) ?? '';
  if (first && last) return `${first}${last}`.toUpperCase();
  const fromUsername = person.username?.trim().charAt(0) ?? '';
  return fromUsername ? fromUsername.toUpperCase() : 'U';
}
