/**
 * Vite plugin: precompiled form validators as virtual modules, at build and in the dev server.
 *
 *   import 'virtual:form-validators/individual';   // registers the individual form's validator
 *
 * Each module is Ajv standalone code generated from the schema files (src/shared/forms/
 * standalone.ts) with its `require(…)` calls turned into ES imports; the rule keywords' code
 * imports `virtual:form-rules` (src/shared/forms/ruleAdapters.ts). Saving a schema file
 * regenerates the module and reloads the page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, ViteDevServer } from 'vite';
import { bundleForm, type CommonSchemas } from '../src/shared/forms/bundleForm';
import { RULES_MODULE_ID } from '../src/shared/forms/ruleAdapters';
import { precompiledFormModule } from '../src/shared/forms/standalone';

const PREFIX = 'virtual:form-validators/';
const RESOLVED_PREFIX = '\0' + PREFIX;
const RESOLVED_RULES = '\0' + RULES_MODULE_ID;

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemasDir = path.join(projectRoot, 'schemas');
const formsDir = path.join(projectRoot, 'src/shared/forms');

const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));

function readCommons(): CommonSchemas {
  const dir = path.join(schemasDir, 'common');
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.schema.json'))
      .map((name) => [name, readJson(path.join(dir, name))]),
  );
}

/**
 * The forms a uiSchema draws inside this one (`ui:options.form` of a `dialogList` field: the
 * affiliated-person dialog of the business form), so importing a form's module registers theirs
 * too and a page never names them.
 */
export function nestedFormIds(uiSchema: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const options = record['ui:options'] as Record<string, unknown> | undefined;
    if (record['ui:field'] && typeof options?.form === 'string') found.add(options.form);
    Object.values(record).forEach(walk);
  };
  walk(uiSchema);
  return [...found];
}

/** The module source for one form, from the files on disk now. */
export function formValidatorsModule(formId: string): string {
  const dir = path.join(schemasDir, formId);
  const uiSchema = readJson(path.join(dir, `${formId}.ui.json`));
  const form = bundleForm(
    { schema: readJson(path.join(dir, `${formId}.schema.json`)), uiSchema, example: {} },
    readCommons(),
  );
  const nested = nestedFormIds(uiSchema)
    .filter((id) => id !== formId)
    .map((id) => `import '${PREFIX}${id}';\n`)
    .join('');
  return (
    nested +
    precompiledFormModule(formId, form.schema, {
      precompiled: path.join(formsDir, 'precompiled.ts'),
    })
  );
}

export function formValidatorsPlugin(): Plugin {
  let server: ViteDevServer | undefined;
  return {
    name: 'form-validators',
    config: () => ({
      // The helpers standalone code imports, pre-bundled up front so the dev server never
      // discovers them late and reloads.
      optimizeDeps: {
        include: [
          'ajv/dist/runtime/ucs2length',
          'ajv/dist/runtime/equal',
          'ajv-formats/dist/formats',
        ],
      },
    }),
    configureServer(devServer) {
      server = devServer;
      devServer.watcher.add(schemasDir);
    },
    resolveId(id) {
      if (id.startsWith(PREFIX)) return '\0' + id;
      if (id === RULES_MODULE_ID) return RESOLVED_RULES;
      return null;
    },
    load(id) {
      if (id === RESOLVED_RULES) {
        // The validators read the rules as a CommonJS helper (`.default` when it has one): a
        // default export of the namespace keeps the bundler from warning that it is undefined.
        const rules = JSON.stringify(path.join(formsDir, 'ruleAdapters.ts'));
        return `export * from ${rules};\nimport * as rules from ${rules};\nexport default rules;`;
      }
      if (!id.startsWith(RESOLVED_PREFIX)) return null;
      const formId = id.slice(RESOLVED_PREFIX.length);
      this.addWatchFile(path.join(schemasDir, formId, `${formId}.schema.json`));
      return formValidatorsModule(formId);
    },
    handleHotUpdate({ file }) {
      if (!server || !file.startsWith(schemasDir) || !file.endsWith('.json')) return;
      for (const module of server.moduleGraph.idToModuleMap.values()) {
        if (module.id?.startsWith(RESOLVED_PREFIX)) server.moduleGraph.invalidateModule(module);
      }
      server.ws.send({ type: 'full-reload' });
      return [];
    },
  };
}
