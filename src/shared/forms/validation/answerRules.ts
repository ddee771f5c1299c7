/**
 * Rules across answers (`x-rules`, issue 37 §1): each a JSON Logic expression that must hold for
 * the answers of the schema it stands in, and the message shown where the applicant can act on
 * it (`at`, a JSON pointer from there: the list, not each item). Values a rule computes first
 * (`values`) are named in its message: 'adds up to {total} %'.
 *
 * ```json
 * "x-rules": [{
 *   "at": "/affiliatedPersons",
 *   "values": { "total": { "reduce": [ … ] } },
 *   "rule": { "<=": [{ "var": "total" }, 100] },
 *   "message": "The direct ownership of the persons listed adds up to {total} %; it can be at most 100 %"
 * }]
 * ```
 *
 * The validation keyword calls {@link answerRuleProblems}, which precompiled validators import
 * by module id (ruleAdapters.ts): it must stay pure.
 */
import { evaluate, truthy, type Logic } from './jsonLogic';

/** One rule of `x-rules`. */
export interface AnswerRule {
  rule: Logic;
  message: string;
  /** Where the message shows, from the schema holding the rule ('' or absent: there). */
  at?: string;
  values?: Record<string, Logic>;
}

/** One broken rule: its message (values filled in) and where it shows. */
export interface AnswerRuleProblem {
  at: string;
  message: string;
}

/** A value as a message names it: 120, 15.5, 33.33 (two decimals at most). */
export function shown(value: unknown): string {
  if (typeof value === 'number') return String(Math.round(value * 100) / 100);
  if (Array.isArray(value)) return value.map(shown).join(', ');
  return value === null || value === undefined ? '' : String(value);
}

/**
 * The rules `rules` that `data` breaks, in their order. A rule one of whose numeric values is not
 * a number (an answer that is not one, which its own message already names) is not judged.
 */
export function answerRuleProblems(
  data: unknown,
  rules: readonly AnswerRule[],
): AnswerRuleProblem[] {
  const problems: AnswerRuleProblem[] = [];
  for (const { rule, message, at = '', values: logic = {} } of rules) {
    const values: Record<string, unknown> = {};
    for (const [name, expression] of Object.entries(logic)) {
      values[name] = evaluate(expression, data, values);
    }
    if (Object.values(values).some((value) => typeof value === 'number' && !Number.isFinite(value)))
      continue;
    if (truthy(evaluate(rule, data, values))) continue;
    const text = message.replace(/\{([A-Za-z_][\w]*)\}/g, (whole, name: string) =>
      Object.hasOwn(values, name) ? shown(values[name]) : whole,
    );
    problems.push({ at, message: text });
  }
  return problems;
}
