// Types of scripts/build.mjs for the TypeScript that imports it (test/build.test.ts).

/** What dist/server/build.json records. */
export type BuildInfo = { layout: number; hash: string; builtAt: string; node: string };

export const SERVER_DIST: string;
export const SERVER_ENTRIES: Record<string, string>;
export function serverSourceHash(): string;
export function readBuildInfo(outDir?: string): BuildInfo | null;
export function staleReason(info: BuildInfo | null, current: { hash: string; missing?: string[] }): string | null;
export function buildServer(options?: { outDir?: string; hash?: string }): Promise<number>;
export function ensureServerBuilt(options?: {
  outDir?: string;
  force?: boolean;
  log?: (line: string) => void;
}): Promise<boolean>;
export function ensureBuilt(options?: { force?: boolean }): Promise<void>;
