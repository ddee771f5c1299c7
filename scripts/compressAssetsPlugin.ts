/**
 * Vite plugin: writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text asset of the
 * build, at the highest levels (build time, once), so the server sends them as they are
 * (@fastify/static `preCompressed`) instead of compressing on every request. Source maps are
 * left alone: only developers fetch them.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

function compressFolder(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      compressFolder(file);
      continue;
    }
    if (!COMPRESSIBLE.test(entry.name)) continue;
    const bytes = fs.readFileSync(file);
    if (bytes.length < MIN_BYTES) continue;
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(bytes, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    );
    fs.writeFileSync(
      `${file}.gz`,
      zlib.gzipSync(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
    );
  }
}

export function compressAssetsPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'compress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      compressFolder(outDir);
    },
  };
}
