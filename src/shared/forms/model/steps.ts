/**
 * Steps as data: a wizard's uiSchema names its steps under `ui:steps` (the title on the stepper,
 * the sections of top-level fields each shows, the next button's label, the signature prompt of
 * the info alert). A form without `ui:steps` is one page. A `review` step shows every earlier
 * step's answers as text, from the same schema.
 *
 * A step whose prompt is also sent with the answers (spec §3.4: the `userInfo` signature) names
 * it with `"signature": "<x-signatures key>"`, so the wording lives once, in the schema's
 * `x-signatures`; a prompt shown only on screen (Confirm's) is the step's own `signaturePrompt`.
 */
export interface FormSection {
  /** The section's heading (also the heading of its part of the review). */
  title?: string;
  /** Top-level property names, in the order shown. */
  fields: string[];
}

export interface FormStep {
  /** Stable name ('user', 'business', 'confirm'). */
  id: string;
  /** The stepper's label. */
  title: string;
  /** The label of the button that leaves the step forward (submits on the last step). */
  next: string;
  /** The info alert above the step: what clicking the next button attests. */
  signaturePrompt?: string;
  /** Introductory text under the alert. */
  description?: string;
  /** A review of the answers instead of questions. */
  review?: boolean;
  sections: FormSection[];
}

type UiLike = Record<string, unknown> | undefined;
type SchemaLike = Record<string, unknown> | undefined;

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** The prompt of `x-signatures[name]` in a schema, if there is one. */
function signaturePromptOf(schema: SchemaLike, name: unknown): string | undefined {
  const signatures = schema?.['x-signatures'];
  const signature = typeof name === 'string' && isObject(signatures) ? signatures[name] : undefined;
  return isObject(signature) && typeof signature.prompt === 'string' ? signature.prompt : undefined;
}

/**
 * The steps a uiSchema declares, or undefined for a one-page form; `schema` resolves the steps'
 * `signature` references. Malformed entries are dropped (`forms check` reports them).
 */
export function stepsOf(uiSchema: UiLike, schema?: SchemaLike): FormStep[] | undefined {
  const raw = uiSchema?.['ui:steps'];
  if (!Array.isArray(raw)) return undefined;
  return raw.filter(isObject).map((step, index) => ({
    id: typeof step.id === 'string' ? step.id : `step${index + 1}`,
    title: typeof step.title === 'string' ? step.title : '',
    next: typeof step.next === 'string' ? step.next : '',
    signaturePrompt:
      signaturePromptOf(schema, step.signature) ??
      (typeof step.signaturePrompt === 'string' ? step.signaturePrompt : undefined),
    description: typeof step.description === 'string' ? step.description : undefined,
    review: step.review === true,
    sections: Array.isArray(step.sections)
      ? step.sections.filter(isObject).map((section) => ({
          title: typeof section.title === 'string' ? section.title : undefined,
          fields: Array.isArray(section.fields)
            ? section.fields.filter((f): f is string => typeof f === 'string')
            : [],
        }))
      : [],
  }));
}

/** The top-level fields a step asks, in order. */
export function stepFields(step: FormStep): string[] {
  return step.sections.flatMap((section) => section.fields);
}

/** Problems with a form's steps: each needs a title and a next label, and every top-level property belongs to exactly one question step. */
export function stepProblems(
  steps: FormStep[],
  raw: unknown,
  propertyNames: string[],
  schema?: SchemaLike,
): { pointer: string; message: string }[] {
  const problems: { pointer: string; message: string }[] = [];
  const rawSteps = Array.isArray(raw) ? raw : [];
  if (rawSteps.length !== steps.length) {
    problems.push({ pointer: '/ui:steps', message: 'every step must be an object' });
  }
  rawSteps.forEach((step: unknown, index) => {
    if (!isObject(step) || step.signature === undefined) return;
    const pointer = `/ui:steps/${index}/signature`;
    if (!signaturePromptOf(schema, step.signature)) {
      problems.push({ pointer, message: 'names no x-signatures entry with a prompt' });
    } else if (step.signaturePrompt !== undefined) {
      problems.push({ pointer, message: 'a step takes signature or signaturePrompt, not both' });
    }
  });
  const owner = new Map<string, number>();
  steps.forEach((step, index) => {
    const pointer = `/ui:steps/${index}`;
    if (!step.title) problems.push({ pointer, message: 'a step needs a title' });
    if (!step.next) problems.push({ pointer, message: 'a step needs a next label' });
    if (step.review && step.sections.length > 0) {
      problems.push({ pointer, message: 'a review step lists no fields' });
    }
    for (const name of stepFields(step)) {
      if (!propertyNames.includes(name)) {
        problems.push({
          pointer: `${pointer}/sections`,
          message: `no property ${name} in the schema`,
        });
      } else if (owner.has(name)) {
        problems.push({ pointer: `${pointer}/sections`, message: `${name} is in two steps` });
      } else owner.set(name, index);
    }
  });
  for (const name of propertyNames) {
    if (!owner.has(name)) {
      problems.push({ pointer: '/ui:steps', message: `${name} is in no step` });
    }
  }
  return problems;
}
