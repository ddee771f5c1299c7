/**
 * Gzipped JavaScript of the project's production build (the app's own vite.config.ts, built into a
 * temp folder with a manifest): what /clearing/signin loads initially (the entry chunk and its
 * static imports; every non-lazy route lives there) and what the lazy IndividualRegistrationPage
 * chunk adds (its file and static imports not already loaded). The entry chunk's biggest
 * contributors come from the build output's per-module rendered sizes (minified, before gzip).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'vite';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface OutputChunkLike {
  type: 'chunk' | 'asset';
  fileName: string;
  modules?: Record<string, { renderedLength: number }>;
}

interface BundleFigures {
  signinFiles: string[];
  signinGzip: number;
  signinRaw: number;
  registrationFiles: string[];
  registrationGzip: number;
  registrationRaw: number;
  /** The biggest packages / modules of the sign-in JS (minified bytes). */
  topPackages: { name: string; bytes: number }[];
  topModules: { name: string; bytes: number }[];
}

/** The one registration page, and the individual form's compiled module it loads beside it. */
const REGISTRATION_SRC = 'pages/registration/RegistrationPage.tsx';
const INDIVIDUAL_FORM = 'virtual:forms/individual';

function staticClosure(manifest: Manifest, keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    staticClosure(manifest, manifest[key]?.imports ?? [], seen);
  }
  return seen;
}

function packageOf(id: string): string {
  const clean = id.replace(/^\0/, '').split('?')[0]!;
  const at = clean.lastIndexOf('node_modules/');
  if (at < 0)
    return clean.startsWith(process.cwd())
      ? `app: ${path.relative(process.cwd(), clean).split('/').slice(0, 3).join('/')}`
      : clean;
  const parts = clean.slice(at + 'node_modules/'.length).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

export async function bundleFigures(projectRoot: string, outDir: string): Promise<BundleFigures> {
  const result = await build({
    configFile: path.join(projectRoot, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, manifest: true },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap(
    (r) => (r as { output?: OutputChunkLike[] }).output ?? [],
  );
  const manifest = JSON.parse(
    fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'),
  ) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('no entry chunk in the manifest');
  const registrationKey = Object.keys(manifest).find((key) => key.endsWith(REGISTRATION_SRC));
  if (!registrationKey) throw new Error(`no ${REGISTRATION_SRC} chunk in the manifest`);
  const formKey = Object.keys(manifest).find((key) => key.endsWith(INDIVIDUAL_FORM));
  if (!formKey) throw new Error(`no ${INDIVIDUAL_FORM} chunk in the manifest`);

  const signin = staticClosure(manifest, [entryKey]);
  const registration = [...staticClosure(manifest, [registrationKey, formKey])].filter(
    (key) => !signin.has(key),
  );
  const files = (keys: Iterable<string>) =>
    [...keys].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
  const size = (list: string[], gzip: boolean) =>
    list.reduce((sum, file) => {
      const bytes = fs.readFileSync(path.join(outDir, file));
      return sum + (gzip ? zlib.gzipSync(bytes).length : bytes.length);
    }, 0);

  const signinFiles = files(signin);
  const registrationFiles = files(registration);

  const packages = new Map<string, number>();
  const modules: { name: string; bytes: number }[] = [];
  for (const output of outputs) {
    if (output.type !== 'chunk' || !signinFiles.includes(output.fileName)) continue;
    for (const [id, info] of Object.entries(output.modules ?? {})) {
      const name = packageOf(id);
      packages.set(name, (packages.get(name) ?? 0) + info.renderedLength);
      modules.push({
        name: path.relative(projectRoot, id.replace(/^\0/, '')),
        bytes: info.renderedLength,
      });
    }
  }
  const top = (list: { name: string; bytes: number }[]) =>
    list.sort((a, b) => b.bytes - a.bytes).slice(0, Number(process.env.BENCH_TOP ?? 8));

  return {
    signinFiles,
    signinGzip: size(signinFiles, true),
    signinRaw: size(signinFiles, false),
    registrationFiles,
    registrationGzip: size(registrationFiles, true),
    registrationRaw: size(registrationFiles, false),
    topPackages: top([...packages].map(([name, bytes]) => ({ name, bytes }))),
    topModules: top(modules),
  };
}
