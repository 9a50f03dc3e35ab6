import type { TopMatch } from '../../../common/schemas/qa';
import { useWorkspace } from '../../app/workspace/use-workspace';
import { useChatState } from './chat-store';

/**
 * The last question answered in the current workspace's chat and the library entries closest to it: what the
 * Context & Tasks panel lists as Top Matching Answers. Null before the first answer of a chat.
 */
export function useLastAsked(): { question: string; matches: TopMatch[] } | null {
  const { currentWorkspace } = useWorkspace();
  return useChatState(currentWorkspace?.id ?? 'none').lastAsked;
}
