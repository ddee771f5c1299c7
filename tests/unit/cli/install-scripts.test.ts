/**
 * npm 11 holds back a dependency's install script until `allowScripts` in package.json approves
 * or denies it, and says `npm warn install-scripts …` on every `npm ci` while one waits. A new
 * dependency with an install script nobody reviewed fails here, not as a warning nobody reads.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const projectRoot = path.resolve(__dirname, '../../..');
const readJson = (file: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(projectRoot, file), 'utf8'));

interface LockPackage {
  version?: string;
  hasInstallScript?: boolean;
}

/** The package name of a lockfile path (`node_modules/a/node_modules/@b/c` → `@b/c`). */
function packageName(lockPath: string): string {
  return lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

describe('install scripts', () => {
  const allowScripts = (readJson('package.json') as { allowScripts?: Record<string, boolean> })
    .allowScripts;
  const lock = readJson('package-lock.json') as { packages: Record<string, LockPackage> };
  const withScripts = Object.entries(lock.packages)
    .filter(([lockPath, entry]) => lockPath !== '' && entry.hasInstallScript)
    .map(([lockPath]) => packageName(lockPath));

  it('every package of the lockfile that has an install script is approved or denied', () => {
    // Every platform's package, not only the ones installed here: npm ci on another machine
    // installs its own platform's and would warn about it.
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => allowScripts?.[name] === undefined)).toEqual([]);
  });

  it('approves or denies only packages the lockfile holds with an install script', () => {
    const stale = Object.keys(allowScripts ?? {}).filter((name) => !withScripts.includes(name));
    expect(stale).toEqual([]);
  });

  it('npm itself finds no install script waiting for review in the installed tree', async () => {
    const listed = await new Promise<string>((resolve, reject) =>
      execFile(
        'npm',
        ['install-scripts', 'ls', '--json'],
        { cwd: projectRoot, encoding: 'utf8' },
        (error, stdout, stderr) =>
          error ? reject(new Error(`npm install-scripts ls failed: ${stderr}`)) : resolve(stdout),
      ),
    );
    expect(JSON.parse(listed)).toEqual({ allowScripts: [] });
  }, 60_000);
});
