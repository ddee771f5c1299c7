import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { compileServerAndTools } from '../compiled';

/** The `forms` CLI the unit tests launch, compiled once per run (tests/compiled.ts). */
export default async function setup(project: TestProject) {
  const compiledDir = path.resolve('dist/test-unit');
  await compileServerAndTools(compiledDir);
  project.provide('compiledDir', compiledDir);
}
