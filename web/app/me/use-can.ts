import type { Action } from '../../../common/policies';
import { useMe } from './get-me';

/**
 * Whether the signed-in user may perform `action`, from the permissions the server sent with `me` — the same
 * policy table the server enforces, so the UI hides exactly what would be refused.
 */
export function useCan(action: Action): boolean {
  const { data } = useMe();
  return data?.permissions.includes(action) ?? false;
}
