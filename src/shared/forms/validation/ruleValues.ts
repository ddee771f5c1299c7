/**
 * Values a rule across answers computes, shown to the applicant while they answer (issue 37 §1):
 * a list's uiSchema `"ui:options": {"valuesText": "Direct ownership listed so far: {total} %"}`
 * names values (`{total}`) of the `x-rules` whose message shows at that list, computed from the
 * answers as the rule computes them, so the line and the rule can never disagree.
 */
import { evaluate } from './jsonLogic';
import { shown, type AnswerRule } from './answerRules';
import { fromPointer, toPointer } from '../model/pointer';
import { isPlainObject, type JsonSchema } from '../model/schemaTypes';
import { allProperties, deref } from '../walk/schemaWalk';

/** The rules shown at `pointer`, each with the pointer of the object holding it. */
function rulesShownAt(root: JsonSchema, pointer: string): { rule: AnswerRule; holder: string[] }[] {
  const found: { rule: AnswerRule; holder: string[] }[] = [];
  const keys = fromPointer(pointer);
  let schema: JsonSchema | undefined = deref(root, root);
  for (let depth = 0; schema; depth++) {
    const holder = keys.slice(0, depth);
    const rules = schema['x-rules'];
    for (const rule of Array.isArray(rules) ? (rules as AnswerRule[]) : []) {
      if (`${toPointer(holder)}${rule.at ?? ''}` === pointer) found.push({ rule, holder });
    }
    const key = keys[depth];
    if (key === undefined) break;
    const child: JsonSchema | undefined = allProperties(schema, root)[key];
    schema = child ? deref(child, root) : undefined;
  }
  return found;
}

/** The names of the values the rules shown at `pointer` compute (for check). */
export function ruleValueNamesAt(root: JsonSchema, pointer: string): string[] {
  return rulesShownAt(root, pointer).flatMap(({ rule }) =>
    isPlainObject(rule.values) ? Object.keys(rule.values) : [],
  );
}

/**
 * The values the rules shown at `pointer` compute for `answers`, by name, as their messages name
 * them (120, 15.5); a value a rule cannot compute yet (an answer not a number) is left out.
 */
export function ruleValuesAt(
  root: JsonSchema,
  answers: unknown,
  pointer: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { rule, holder } of rulesShownAt(root, pointer)) {
    if (!isPlainObject(rule.values)) continue;
    let data: unknown = answers;
    for (const key of holder) data = isPlainObject(data) ? data[key] : undefined;
    const values: Record<string, unknown> = {};
    for (const [name, expression] of Object.entries(rule.values)) {
      values[name] = evaluate(expression, data, values);
      const value = values[name];
      if (!(name in out) && !(typeof value === 'number' && !Number.isFinite(value))) {
        out[name] = shown(value);
      }
    }
  }
  return out;
}

/** `text` with each `{name}` given by `values`; undefined while one of them is not. */
export function fillValues(text: string, values: Record<string, string>): string | undefined {
  let missing = false;
  const filled = text.replace(/\{([A-Za-z_]\w*)\}/g, (_whole, name: string) => {
    if (!Object.hasOwn(values, name)) missing = true;
    return values[name] ?? '';
  });
  return missing ? undefined : filled;
}
