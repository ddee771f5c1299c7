/**
 * Ahead-of-time validators for the browser: Ajv standalone code for a form (with the sub-schemas
 * rjsf checks when resolving if/then, via rjsf's `compileSchemaValidatorsCode`), turned into an
 * ES module that registers itself. Used by the Vite plugin at build time and by the dev server;
 * the browser then never compiles a schema, so the page's CSP needs no `unsafe-eval`.
 */
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import type { RJSFSchema } from '@rjsf/utils';
import { RJSF_VALIDATOR_OPTIONS } from './ajvConfig';
import type { JsonSchema } from './schemaTypes';

/** Ajv's standalone CommonJS output as an ES module body: `require("x")` become imports. */
export function commonJsToEsm(
  code: string,
  resolveId: (id: string) => string = (id) => id,
): string {
  const imports = new Map<string, string>();
  const body = code.replace(/require\(("(?:[^"\\]|\\.)*")\)/g, (_match, literal: string) => {
    const id = JSON.parse(literal) as string;
    if (!imports.has(id)) imports.set(id, `__require${imports.size}`);
    return imports.get(id)!;
  });
  const header = [...imports].map(
    ([id, name]) => `import * as ${name}$ns from ${JSON.stringify(resolveId(id))};`,
  );
  // A CommonJS helper may arrive as its exports object (default import) or as a namespace of
  // them (named exports), depending on the bundler's interop; Ajv's helpers set __esModule.
  const bindings = [...imports.values()].map(
    (name) =>
      `const ${name} = ${name}$ns.default && ${name}$ns.default.__esModule ? ${name}$ns.default : ${name}$ns;`,
  );
  return [
    ...header,
    ...bindings,
    'const module = { exports: {} };',
    'const exports = module.exports;',
    body,
    'const validateFns = module.exports;',
  ].join('\n');
}

/**
 * The ES module for one form: `export default` the validator functions by schema hash, and
 * register them (`registerPrecompiled`) on import. `forms` is the module id of
 * src/shared/forms/precompiled.ts as the importer resolves it.
 */
export function precompiledFormModule(
  formId: string,
  schema: JsonSchema,
  ids: { precompiled: string; resolve?: (id: string) => string },
): string {
  const code = compileSchemaValidatorsCode(schema as RJSFSchema, RJSF_VALIDATOR_OPTIONS);
  return [
    `import { registerPrecompiled } from ${JSON.stringify(ids.precompiled)};`,
    commonJsToEsm(code, ids.resolve),
    `registerPrecompiled(${JSON.stringify(formId)}, validateFns);`,
    'export default validateFns;',
  ].join('\n');
}
