/**
 * The rule functions as the `x-…` validation keywords call them: `(value, messages) => reason`.
 * A keyword's value maps each failure reason to its message; for dates the presence of a `future`
 * message switches the not-in-the-future check on, of a `minor` message the adults-only check,
 * and of a `tooOld` message the not-more-than-120-years-ago check.
 *
 * Precompiled validators import this module by the id {@link RULES_MODULE_ID} (the Vite plugin
 * resolves it here), so it must stay free of anything but the pure rules.
 */
import { dateProblem } from '../../rules/date';
import { leiProblem } from '../../rules/lei';
import { nameProblem } from '../../rules/names';
import { phoneProblem } from '../../rules/phone';
import { ssnProblem } from '../../rules/ssn';

/** The rules across answers (`x-rules`), evaluated by the keyword's generated code too. */
export { answerRuleProblems } from './answerRules';

export type RuleAdapter = (value: string, messages: Record<string, string>) => string | null;

export const ruleAdapters = {
  phone: (value) => phoneProblem(value),
  ssn: (value) => ssnProblem(value),
  date: (value, messages) =>
    dateProblem(value, {
      notInFuture: 'future' in messages,
      adult: 'minor' in messages,
      living: 'tooOld' in messages,
    }),
  name: (value) => nameProblem(value),
  lei: (value) => leiProblem(value),
} satisfies Record<string, RuleAdapter>;

export type RuleName = keyof typeof ruleAdapters;

/** The module id standalone validator code requires the adapters by. */
export const RULES_MODULE_ID = 'virtual:form-rules';
