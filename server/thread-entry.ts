/**
 * The file a worker thread starts from. Running the TypeScript sources (`npm run dev`, tests) it is a `.mjs`
 * bootstrap beside the calling module, which installs tsx in the thread before importing the thread's TypeScript
 * (a thread inherits no loader registered at run time). Running the compiled server (dist/server, what `npm start`
 * runs) it is the thread's own compiled entry, which scripts/build.mjs writes beside every other entry and chunk,
 * so `moduleUrl` (the caller's `import.meta.url`) points into that same folder and no loader is involved.
 */
export function threadEntry(moduleUrl: string, files: { source: string; compiled: string }): URL {
  return new URL(moduleUrl.endsWith('.ts') ? files.source : files.compiled, moduleUrl);
}
