import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  formIndexModule,
  formModule,
  formValidatorsPlugin,
} from '../../../scripts/formValidatorsPlugin';
import { nestedFormIds } from '../../../src/shared/forms/model/compiledForm';
import type { ValidationResult } from '../../../src/shared/forms/model/types';

const root = path.resolve(__dirname, '../../..');
// Inside the project so that bare imports resolve to its node_modules.
const workDir = path.join(root, 'node_modules/.cache/form-validators-test');

describe('precompiled validators (Vite plugin)', () => {
  it('bundles validators that never compile a schema and give the same messages', async () => {
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.mkdirSync(workDir, { recursive: true });
    const entry = path.join(workDir, 'entry.ts');
    const forms = path.join(root, 'src/shared/forms');
    fs.writeFileSync(
      entry,
      [
        `import individual from 'virtual:forms/individual';`,
        `import business from 'virtual:forms/business';`,
        `import { validateAnswers } from ${JSON.stringify(path.join(forms, 'validation', 'validateAnswers.ts'))};`,
        `import { toPayloadJson } from ${JSON.stringify(path.join(forms, 'payload', 'payload.ts'))};`,
        `import { validatorWarmedUp } from ${JSON.stringify(path.join(forms, 'model/precompiledForm.ts'))};`,
        `export const validate = (answers) => validateAnswers(individual, answers);`,
        `export const payload = (answers) => toPayloadJson(individual, answers);`,
        `export const warmedUp = (id) => validatorWarmedUp(id === 'business' ? business : individual);`,
        `export const dialogForm = business.nested['affiliated-person'];`,
      ].join('\n'),
    );
    await build({
      configFile: false,
      root: workDir,
      logLevel: 'silent',
      plugins: [formValidatorsPlugin()],
      build: {
        outDir: path.join(workDir, 'dist'),
        minify: false,
        lib: { entry, formats: ['es'], fileName: 'bundle' },
      },
    });
    const bundleFile = path.join(workDir, 'dist/bundle.js');
    const code = fs.readFileSync(bundleFile, 'utf8');
    // Ajv's compiler builds validators with `new Function`; the precompiled bundle has none.
    expect(code).not.toMatch(/new Function\(/);
    // No CommonJS `require` calls left (Ajv keeps one inside a string, as a code snippet).
    expect(code).not.toMatch(/(^|[^"\w])require\(/m);

    const bundle = (await import(pathToFileURL(bundleFile).href)) as {
      validate: (answers: unknown) => ValidationResult;
      payload: (answers: unknown) => { formId: string };
      warmedUp: (formId: string) => Promise<boolean>;
      dialogForm: { id: string; validator: unknown } | undefined;
    };
    // Importing the module schedules the warm-up (example answers validated while idle).
    await expect(bundle.warmedUp('individual')).resolves.toBe(true);
    await expect(bundle.warmedUp('business')).resolves.toBe(true);
    // The business form carries the form its dialog draws, with its own precompiled validator.
    expect(bundle.dialogForm?.id).toBe('affiliated-person');
    const example = JSON.parse(
      fs.readFileSync(path.join(root, 'schemas/individual/individual.example.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(bundle.validate(example)).toEqual({ valid: true, errors: [] });
    expect(
      bundle.validate({
        ...example,
        primaryPhoneNumber: '+1',
        marriedStatus: true,
        numberOfDependents: undefined,
        firstName: 'J4ne',
      }).errors,
    ).toEqual([
      { path: '/firstName', message: 'Contains invalid characters' },
      { path: '/primaryPhoneNumber', message: 'Phone number too short' },
      { path: '/numberOfDependents', message: 'Must provide number of dependents' },
    ]);
    expect(bundle.validate({ ...example, secondaryEmailAddress: 'jane@' }).errors).toEqual([
      { path: '/secondaryEmailAddress', message: 'Invalid email' },
    ]);
    expect(bundle.validate({}).errors).toHaveLength(41);
    expect(bundle.payload(example).formId).toBe('individual');
  }, 120_000);
});

describe('form modules', () => {
  it('the business module imports the affiliated-person module; the others import none', () => {
    expect(formModule('business')).toContain(
      'import nested0 from "virtual:forms/affiliated-person";',
    );
    expect(formModule('individual')).not.toContain('virtual:forms/');
    expect(
      nestedFormIds({ list: { 'ui:field': 'dialogList', 'ui:options': { form: 'x' } } }),
    ).toEqual(['x']);
    expect(nestedFormIds({ list: { 'ui:options': { form: 'x' } } })).toEqual([]);
  });

  it('the index lists every folder of schemas/ with a loader', () => {
    const index = formIndexModule();
    for (const id of ['individual', 'business', 'affiliated-person']) {
      expect(index).toContain(`import("virtual:forms/${id}")`);
    }
  });
});
