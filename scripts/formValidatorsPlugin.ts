/**
 * Vite plugin: the forms of schemas/ as virtual modules, at build and in the dev server.
 *
 *   import individual from 'virtual:forms/individual';  // the compiled form (CompiledForm)
 *   import { formIds, importForm } from 'virtual:forms'; // every form folder, loaded on demand
 *
 * A form's module carries its bundled files and Ajv standalone code generated from them
 * (src/shared/forms/validation/standalone.ts), its `require(…)` calls turned into ES imports; the rule
 * keywords' code imports `virtual:form-rules` (src/shared/forms/validation/ruleAdapters.ts). Forms are
 * discovered from the folders under schemas/ and FORMS_DIR's folder
 * (src/shared/forms/model/formFiles.ts): a new folder is a new module with no code change. Saving
 * a schema file regenerates the modules and reloads.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, ViteDevServer } from 'vite';
import { bundleForm } from '../src/shared/forms/model/bundleForm';
import { nestedFormIds } from '../src/shared/forms/model/compiledForm';
import { diskTree } from '../src/shared/forms/model/compileNode';
import { readFormSources, type FormSources } from '../src/shared/forms/model/formFiles';
import { registrationOf } from '../src/shared/forms/model/registration';
import { isPlainObject, type RegistrationAnnotation } from '../src/shared/forms/model/schemaTypes';
import { RULES_MODULE_ID } from '../src/shared/forms/validation/ruleAdapters';
import { precompiledFormModule } from '../src/shared/forms/validation/standalone';

type RegistrationEntry = { id: string } & Pick<
  RegistrationAnnotation,
  'choice' | 'page' | 'submitted'
>;

const INDEX = 'virtual:forms';
const PREFIX = `${INDEX}/`;
const RESOLVED_INDEX = '\0' + INDEX;
const RESOLVED_PREFIX = '\0' + PREFIX;
const RESOLVED_RULES = '\0' + RULES_MODULE_ID;

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const formsDir = path.join(projectRoot, 'src/shared/forms');

/** The form files on disk now under `root`/schemas; a file that does not read is the module's error. */
function readSources(root: string): { sources: FormSources; problems: string[] } {
  const { sources, problems } = readFormSources(diskTree(root, process.env.FORMS_DIR));
  return { sources, problems: problems.map((p) => `${p.file}: ${p.message}`) };
}

/** The module source for one form, from the files on disk now. */
export function formModule(formId: string, root = projectRoot): string {
  const { sources, problems } = readSources(root);
  const files = sources.forms[formId];
  if (!files) {
    throw new Error(
      `No form ${formId} under schemas/${problems.length ? `:\n${problems.join('\n')}` : ''}`,
    );
  }
  const bundled = bundleForm(files, sources.commons);
  const nested = Object.fromEntries(
    nestedFormIds(bundled.uiSchema)
      .filter((id) => id !== formId)
      .map((id) => [id, `${PREFIX}${id}`]),
  );
  return precompiledFormModule(formId, bundled, {
    precompiled: path.join(formsDir, 'model/precompiledForm.ts'),
    nested,
  });
}

/** Every form folder under `root`/schemas: its id and its schema's title (the id when untitled). */
export function formIndex(root = projectRoot): { ids: string[]; titles: Record<string, string> } {
  const { sources } = readSources(root);
  const ids = Object.keys(sources.forms).sort();
  const titles = Object.fromEntries(
    ids.map((id) => {
      const schema = sources.forms[id]!.schema as { title?: unknown };
      return [id, typeof schema.title === 'string' ? schema.title : id];
    }),
  );
  return { ids, titles };
}

/**
 * The registration forms (a root `x-registration`) in the choice page's order: each one's id and
 * what the choice page, its page and its confirmation show, read from the schema.
 */
export function registrationIndex(root = projectRoot): RegistrationEntry[] {
  const { sources } = readSources(root);
  return Object.entries(sources.forms)
    .flatMap(([id, files]) => {
      const registration = isPlainObject(files.schema) ? registrationOf(files.schema) : undefined;
      if (!registration) return [];
      const { choice, page, submitted } = registration;
      return [{ id, choice, page, submitted }];
    })
    .sort((a, b) => a.choice.order - b.choice.order || a.id.localeCompare(b.id));
}

/** The index module: every form's id and title, and a loader importing its module on demand. */
export function formIndexModule(root = projectRoot): string {
  const { ids, titles } = formIndex(root);
  const loaders = ids
    .map((id) => `  ${JSON.stringify(id)}: () => import(${JSON.stringify(PREFIX + id)}),`)
    .join('\n');
  return [
    `export const formIds = ${JSON.stringify(ids)};`,
    `export const formTitles = ${JSON.stringify(titles)};`,
    `export const registrationForms = ${JSON.stringify(registrationIndex(root))};`,
    `const loaders = {\n${loaders}\n};`,
    'export function importForm(id) {',
    '  const load = Object.prototype.hasOwnProperty.call(loaders, id) ? loaders[id] : undefined;',
    '  return load ? load().then((module) => module.default) : Promise.resolve(undefined);',
    '}',
  ].join('\n');
}

/** The form modules made again from the files on disk, and the pages reloaded. */
function reloadForms(server: ViteDevServer): void {
  for (const module of server.moduleGraph.idToModuleMap.values()) {
    if (module.id === RESOLVED_INDEX || module.id?.startsWith(RESOLVED_PREFIX)) {
      server.moduleGraph.invalidateModule(module);
    }
  }
  server.ws.send({ type: 'full-reload' });
}

/** `root`: the project folder holding schemas/ (this repository's by default). */
export function formValidatorsPlugin({ root = projectRoot }: { root?: string } = {}): Plugin {
  // The folders forms are read from: schemas/, and FORMS_DIR's folder as diskTree reads it.
  const folders = [
    path.join(root, 'schemas'),
    ...(process.env.FORMS_DIR ? [path.resolve(root, process.env.FORMS_DIR)] : []),
  ];
  let server: ViteDevServer | undefined;
  const isFormFile = (file: string) =>
    folders.some((folder) => file.startsWith(folder + path.sep)) &&
    (file.endsWith('.json') || !path.extname(file));
  return {
    name: 'forms',
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
      // The folders are watched through the dev server's watcher, not addWatchFile: Vite makes
      // each watch file an import of the module, which fails for a directory and for a form
      // outside schemas/. A new, edited or removed form file regenerates the modules and
      // reloads the page.
      devServer.watcher.add(folders);
      const onChange = (file: string) => {
        if (isFormFile(file)) reloadForms(devServer);
      };
      devServer.watcher.on('add', onChange);
      devServer.watcher.on('unlink', onChange);
      devServer.watcher.on('unlinkDir', onChange);
    },
    resolveId(id) {
      if (id === INDEX || id.startsWith(PREFIX)) return '\0' + id;
      if (id === RULES_MODULE_ID) return RESOLVED_RULES;
      return null;
    },
    load(id) {
      if (id === RESOLVED_RULES) {
        // The validators read the rules as a CommonJS helper (`.default` when it has one): a
        // default export of the namespace keeps the bundler from warning that it is undefined.
        const rules = JSON.stringify(path.join(formsDir, 'validation', 'ruleAdapters.ts'));
        return `export * from ${rules};\nimport * as rules from ${rules};\nexport default rules;`;
      }
      if (id === RESOLVED_INDEX) return formIndexModule(root);
      if (!id.startsWith(RESOLVED_PREFIX)) return null;
      const formId = id.slice(RESOLVED_PREFIX.length);
      try {
        return formModule(formId, root);
      } catch (error) {
        // One broken folder leaves the others working: its page says the form is not
        // available (CI's `forms check` stops it before release).
        this.warn(`The form ${formId} is not available: ${String(error)}`);
        return 'export default undefined;';
      }
    },
    handleHotUpdate({ file }) {
      if (!server || !isFormFile(file)) return;
      reloadForms(server);
      return [];
    },
  };
}
