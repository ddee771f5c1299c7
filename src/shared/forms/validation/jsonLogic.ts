/**
 * JSON Logic (jsonlogic.com), the operators of its documentation less `log` and `method`: what a
 * form's rules across answers (`x-rules`) are written in. The semantics are those of
 * json-logic-js, Form.io's evaluator, so a rule reads and evaluates the same in any JSON Logic
 * implementation. Pure and dependency-free: the browser's precompiled validators import it
 * (through ruleAdapters.ts), so it must stay so.
 */

/** A JSON Logic expression: a value, or `{ "<operator>": argument(s) }`. */
export type Logic = unknown;

/** Named values a rule computed first (`values`), read by `{"var": "<name>"}` at its top level. */
type LogicValues = Readonly<Record<string, unknown>>;

/** JSON Logic's truthiness: an empty list is false, as are `0`, `""`, `null` and `false`. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The single operator of an operation (`{"var": "a"}`), or undefined for a plain value. */
export function operatorOf(logic: Logic): string | undefined {
  if (!isPlain(logic)) return undefined;
  const keys = Object.keys(logic);
  return keys.length === 1 ? keys[0] : undefined;
}

/** The arguments of an operation as a list (`{"var": "a"}` has one, `"a"`). */
export function argumentsOf(logic: Logic): unknown[] {
  const operator = operatorOf(logic);
  if (operator === undefined) return [];
  const value = (logic as Record<string, unknown>)[operator];
  return Array.isArray(value) ? value : [value];
}

function varOf(data: unknown, path: unknown, fallback: unknown): unknown {
  if (path === null || path === undefined || path === '') return data;
  let node: unknown = data;
  for (const part of String(path).split('.')) {
    if (node === null || node === undefined || typeof node !== 'object') return fallback;
    node = (node as Record<string, unknown>)[part];
    if (node === undefined) return fallback;
  }
  return node ?? fallback;
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const toNumber = (value: unknown): number => parseFloat(String(value));

// JSON Logic's `==` and `!=` are JavaScript's loose equality.
const COMPARISONS: Record<string, (a: unknown, b: unknown) => boolean> = {
  '==': (a, b) => a == b,
  '!=': (a, b) => a != b,
  '===': (a, b) => a === b,
  '!==': (a, b) => a !== b,
};

const ORDER: Record<string, (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

/** Operators over a list whose second argument is evaluated once per item (`map`, `filter`…). */
const ITERATING = new Set(['map', 'filter', 'reduce', 'all', 'some', 'none']);

/** Every operator `x-rules` may use (`forms check` refuses any other, by name). */
export const LOGIC_OPERATORS: ReadonlySet<string> = new Set([
  'var',
  'missing',
  'missing_some',
  'if',
  '?:',
  'and',
  'or',
  '!',
  '!!',
  ...Object.keys(COMPARISONS),
  ...Object.keys(ORDER),
  'max',
  'min',
  '+',
  '-',
  '*',
  '/',
  '%',
  'in',
  'cat',
  'substr',
  'merge',
  ...ITERATING,
]);

/** Evaluates `logic` over `data`; `values` are read by name at the top level only. */
export function evaluate(logic: Logic, data: unknown, values: LogicValues = {}): unknown {
  if (Array.isArray(logic)) return logic.map((each) => evaluate(each, data, values));
  const operator = operatorOf(logic);
  if (operator === undefined) return logic;
  const raw = argumentsOf(logic);
  if (operator === 'if' || operator === '?:') return evaluateIf(raw, data, values);
  if (operator === 'and' || operator === 'or') return evaluateJunction(operator, raw, data, values);
  if (ITERATING.has(operator)) return evaluateIteration(operator, raw, data, values);
  const args = raw.map((each) => evaluate(each, data, values));
  return apply(operator, args, data, values);
}

function evaluateIf(raw: unknown[], data: unknown, values: LogicValues): unknown {
  let i = 0;
  for (; i < raw.length - 1; i += 2) {
    if (truthy(evaluate(raw[i], data, values))) return evaluate(raw[i + 1], data, values);
  }
  return i === raw.length - 1 ? evaluate(raw[i], data, values) : null;
}

function evaluateJunction(
  operator: 'and' | 'or',
  raw: unknown[],
  data: unknown,
  values: LogicValues,
): unknown {
  let last: unknown = operator === 'and' ? true : false;
  for (const each of raw) {
    last = evaluate(each, data, values);
    if (truthy(last) === (operator === 'or')) return last;
  }
  return last;
}

function evaluateIteration(
  operator: string,
  raw: unknown[],
  data: unknown,
  values: LogicValues,
): unknown {
  const list = asList(evaluate(raw[0], data, values));
  const body = raw[1];
  // Inside the body the data is the item (reduce: `current` and `accumulator`), as JSON Logic has it.
  const test = (item: unknown) => truthy(evaluate(body, item, {}));
  switch (operator) {
    case 'map':
      return list.map((item) => evaluate(body, item, {}));
    case 'filter':
      return list.filter(test);
    case 'all':
      return list.length > 0 && list.every(test);
    case 'some':
      return list.some(test);
    case 'none':
      return !list.some(test);
    default: {
      let accumulator = evaluate(raw[2] ?? null, data, values);
      for (const current of list) accumulator = evaluate(body, { current, accumulator }, {});
      return accumulator;
    }
  }
}

function apply(operator: string, args: unknown[], data: unknown, values: LogicValues): unknown {
  const [a, b, c] = args;
  const compare = COMPARISONS[operator];
  if (compare) return compare(a, b);
  const order = ORDER[operator];
  if (order) {
    // `{"<": [1, x, 10]}`: between, as JSON Logic allows for < and <=.
    if (args.length === 3)
      return order(toNumber(a), toNumber(b)) && order(toNumber(b), toNumber(c));
    return order(toNumber(a), toNumber(b));
  }
  switch (operator) {
    case 'var': {
      const name = String(a ?? '');
      const head = name.split('.')[0] ?? '';
      if (Object.hasOwn(values, head)) return varOf(values, name, b ?? null);
      return varOf(data, a, b ?? null);
    }
    case 'missing':
      return missingOf(Array.isArray(a) ? a : args, data, values);
    case 'missing_some': {
      const missing = missingOf(asList(b), data, values);
      return asList(b).length - missing.length >= toNumber(a) ? [] : missing;
    }
    case '!':
      return !truthy(a);
    case '!!':
      return truthy(a);
    case 'max':
      return args.length ? Math.max(...args.map(toNumber)) : null;
    case 'min':
      return args.length ? Math.min(...args.map(toNumber)) : null;
    case '+':
      return args.reduce<number>((sum, each) => sum + toNumber(each), 0);
    case '*':
      return args.reduce<number>((product, each) => product * toNumber(each), 1);
    case '-':
      return args.length === 1 ? -toNumber(a) : toNumber(a) - toNumber(b);
    case '/':
      return toNumber(a) / toNumber(b);
    case '%':
      return toNumber(a) % toNumber(b);
    case 'in':
      return Array.isArray(b) ? b.includes(a) : String(b ?? '').includes(String(a));
    case 'cat':
      return args.map((each) => (each === null || each === undefined ? '' : String(each))).join('');
    case 'substr': {
      const text = String(a ?? '');
      const start = toNumber(b);
      const from = start < 0 ? Math.max(text.length + start, 0) : start;
      if (c === undefined) return text.slice(from);
      const length = toNumber(c);
      return length < 0 ? text.slice(from, length) : text.slice(from, from + length);
    }
    case 'merge':
      return args.flatMap((each) => (Array.isArray(each) ? each : [each]));
    default:
      // `forms check` refuses an unknown operator by name; answers never make one fail hard.
      return null;
  }
}

function missingOf(keys: unknown[], data: unknown, values: LogicValues): unknown[] {
  return keys.filter((key) => {
    const value = apply('var', [key], data, values);
    return value === null || value === '';
  });
}
