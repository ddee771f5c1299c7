/**
 * Ahead-of-time validators for the browser: Ajv standalone code for a form (with the sub-schemas
 * rjsf checks when resolving if/then, via rjsf's `compileSchemaValidatorsCode`), turned into an
 * ES module exporting the compiled form. Used by the Vite plugin at build time and by the dev server;
 * the browser then never compiles a schema, so the page's CSP needs no `unsafe-eval`.
 */
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import type { RJSFSchema } from '@rjsf/utils';
import { RJSF_VALIDATOR_OPTIONS } from './ajvConfig';
import type { BundledForm } from '../model/bundleForm';
import type { JsonSchema } from '../model/schemaTypes';

/** Ajv's standalone CommonJS output as an ES module body: `require("x")` become imports. */
function commonJsToEsm(code: string, resolveId: (id: string) => string = (id) => id): string {
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

/** Ajv standalone code (CommonJS) of a form's validator functions, as the browser runs them. */
export function standaloneValidatorCode(schema: JsonSchema): string {
  return compileSchemaValidatorsCode(schema as RJSFSchema, RJSF_VALIDATOR_OPTIONS);
}

/**
 * The ES module of one form (`virtual:forms/<form-id>`): `export default` the compiled form, its
 * bundled files inlined and its validator functions precompiled. `ids.precompiled` is the module
 * id of src/shared/forms/model/precompiledForm.ts as the importer resolves it; `nested` the
 * module ids of the forms it draws inside it, by form id.
 */
export function precompiledFormModule(
  formId: string,
  bundled: BundledForm,
  ids: {
    precompiled: string;
    resolve?: (id: string) => string;
    nested?: Record<string, string>;
  },
): string {
  const nested = Object.entries(ids.nested ?? {});
  const files = { schema: bundled.schema, uiSchema: bundled.uiSchema, example: bundled.example };
  return [
    `import { precompiledForm } from ${JSON.stringify(ids.precompiled)};`,
    ...nested.map(([, id], index) => `import nested${index} from ${JSON.stringify(id)};`),
    commonJsToEsm(standaloneValidatorCode(bundled.schema), ids.resolve),
    // JSON.parse of a string literal is faster for engines to load than the same object literal.
    `const bundled = { ...JSON.parse(${JSON.stringify(JSON.stringify(files))}), hash: ${JSON.stringify(bundled.hash)} };`,
    `const nested = { ${nested.map(([formId], index) => `${JSON.stringify(formId)}: nested${index}`).join(', ')} };`,
    `export default precompiledForm(${JSON.stringify(formId)}, bundled, validateFns, nested);`,
  ].join('\n');
}
