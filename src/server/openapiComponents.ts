/**
 * The OpenAPI document's named schemas (issue 40 §2): each schema below is written once, under
 * `components.schemas`, and every place a route's schemas use it (a response, a request body, a
 * property of another) becomes a `$ref` to it, so a generated client has one named type per
 * shape. The routes keep their schemas whole (Fastify validates and serialises with them, and
 * json-schema-to-ts types them); only the document is folded, by deep equality, once per build.
 */
import {
  adminClearingFirmSchema,
  adminDecisionResultSchema,
  adminOrganizationSchema,
  adminRegistrationSummarySchema,
  adminStatementSchema,
  adminUserDetailSchema,
  adminUserSummarySchema,
} from '../shared/api/admin';
import { profileSchema, sessionListSchema } from '../shared/api/account';
import {
  applicationConflictSchema,
  applicationFileResultSchema,
  applicationResponseSchema,
  applicationViewSchema,
  saveApplicationResultSchema,
} from '../shared/api/applications';
import {
  authCheckSchema,
  signinResultSchema,
  twoFactorStateSchema,
  userDetailsSchema,
  userSchema,
  userSettingsSchema,
} from '../shared/api/auth';
import { formDocumentSchema, formListSchema, formSummarySchema } from '../shared/api/forms';
import { apiErrorBodySchema } from '../shared/api/http';
import { registrationOverviewSchema } from '../shared/api/registration';
import { statementResponseSchema, statementSchema } from '../shared/api/statement';

/** Each named schema of the document, by its component name. */
const NAMED_SCHEMAS: Record<string, object> = {
  Error: apiErrorBodySchema,
  User: userSchema,
  UserDetails: userDetailsSchema,
  UserSettings: userSettingsSchema,
  SignInResult: signinResultSchema,
  SignInState: authCheckSchema,
  TwoFactorState: twoFactorStateSchema,
  Profile: profileSchema,
  SessionList: sessionListSchema,
  FormSummary: formSummarySchema,
  FormList: formListSchema,
  Form: formDocumentSchema,
  Application: applicationViewSchema,
  ApplicationResponse: applicationResponseSchema,
  SaveApplicationResult: saveApplicationResultSchema,
  ApplicationConflict: applicationConflictSchema,
  ApplicationFile: applicationFileResultSchema,
  Registration: registrationOverviewSchema,
  Statement: statementSchema,
  StatementResponse: statementResponseSchema,
  AdminUserSummary: adminUserSummarySchema,
  AdminUserDetail: adminUserDetailSchema,
  AdminOrganization: adminOrganizationSchema,
  AdminRegistrationSummary: adminRegistrationSummarySchema,
  AdminDecisionResult: adminDecisionResultSchema,
  AdminClearingFirm: adminClearingFirmSchema,
  AdminStatement: adminStatementSchema,
};

type Json = Record<string, unknown>;

/**
 * A schema's identity: its JSON with keys sorted, its own description and examples aside, and
 * `const: x` read as `enum: [x]` (as @fastify/swagger writes it).
 */
function fingerprint(schema: unknown): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (typeof value !== 'object' || value === null) return value;
    const { const: only, ...rest } = value as Json;
    const object: Json = 'const' in value ? { ...rest, enum: [only] } : rest;
    return Object.fromEntries(
      Object.keys(object)
        .sort()
        .map((key) => [key, sorted(object[key])]),
    );
  };
  const { description: _description, examples: _examples, ...rest } = schema as Json;
  return JSON.stringify(sorted(rest));
}

/**
 * The document with every occurrence of a named schema replaced by a `$ref`, and the named
 * schemas (each folded the same way inside) added under `components.schemas`. A named schema the
 * routes never use is left out.
 */
export function foldNamedSchemas<T extends object>(openapi: T): T {
  const document = openapi as { components?: Json; paths?: Json };
  const byFingerprint = new Map(
    Object.entries(NAMED_SCHEMAS).map(([name, schema]) => [fingerprint(schema), name]),
  );
  const used = new Map<string, unknown>();
  const fold = (value: unknown, root: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => fold(item, false));
    if (typeof value !== 'object' || value === null) return value;
    const name = root ? undefined : byFingerprint.get(fingerprint(value));
    if (name) {
      if (!used.has(name)) used.set(name, value);
      const { description } = value as Json;
      const ref = { $ref: `#/components/schemas/${name}` };
      return typeof description === 'string' ? { ...ref, description } : ref;
    }
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, fold(inner, false)]),
    );
  };
  const paths = fold(document.paths, true) as Json;
  const components: Json = {};
  // A named schema's own body may use others (User inside SignInResult): fold it too, until no
  // new name turns up.
  for (let done = 0; done < used.size;) {
    const names = [...used.keys()].slice(done);
    done = used.size;
    for (const name of names) {
      const { description: _description, ...schema } = used.get(name) as Json;
      components[name] = fold(schema, true);
    }
  }
  const existing = (document.components?.schemas ?? {}) as Json;
  const sortedComponents = Object.fromEntries(
    Object.keys(components)
      .sort()
      .map((name) => [name, components[name]]),
  );
  return {
    ...document,
    paths,
    components: { ...document.components, schemas: { ...existing, ...sortedComponents } },
  } as T;
}
