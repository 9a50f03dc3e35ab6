import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../test/helpers/processes';
import { startMailCatcher } from './mail-catcher';
import { startDnsServer } from '../test/helpers/dns-server';
import { readTxt } from './dns-records';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** Where the server's e-mails land, one JSON file each (see mail-catcher.ts). */
    mailDir: string;
    /** Where specs publish the TXT records the server's DNS server answers (see dns-records.ts). */
    dnsDir: string;
  }
}

/** The whole product as `npm start` runs it (compiled server and built web app), on a throw-away DATA_DIR. */
export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-e2e-'));
  const port = await freePort();
  // Mail goes over real SMTP to a local catcher, so specs can follow reset and invitation links as a user would.
  const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-e2e-mail-'));
  const mail = await startMailCatcher(mailDir);
  // SSO domains are verified by a DNS TXT record: the server asks a local DNS server the specs publish records to.
  const dnsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-e2e-dns-'));
  const dns = await startDnsServer({ records: (name) => readTxt(dnsDir, name) });
  // The compiled server, as production runs it: built first when missing or stale (a no-op after test-e2e.mjs).
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`the build failed (exit code ${build.status})`);
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
      DNS_SERVERS: dns.address,
      // sso.e2e.ts's identity provider listens on loopback, which Verity calls only for an allowed host.
      SSO_ALLOWED_ISSUER_HOSTS: '127.0.0.1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not become healthy within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  project.provide('baseUrl', baseUrl);
  project.provide('mailDir', mailDir);
  project.provide('dnsDir', dnsDir);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await mail.close();
    await dns.close();
    fs.rmSync(dnsDir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(mailDir, { recursive: true, force: true });
  };
}
