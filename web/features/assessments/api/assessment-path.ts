/** A path segment for an assessment id (ids are UUIDs; encoding keeps a hand-typed URL from escaping the path). */
export function assessmentPath(id: string, rest = ''): string {
  return `/api/assessments/${encodeURIComponent(id)}${rest}`;
}
