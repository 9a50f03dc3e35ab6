import { toast } from './use-toast';

/**
 * Copies `text` and says so in a toast. Without clipboard permission (or on an insecure origin) the failure toast says
 * so rather than pretend; `failureHint` tells the user what to do instead.
 */
export async function copyToClipboard(text: string, failureHint?: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied to clipboard', variant: 'success' });
  } catch {
    toast({ title: 'Failed to copy', description: failureHint, variant: 'destructive' });
  }
}
