/**
 * Encrypting and decrypting the sensitive answers of a registration (issue 29: p95 at most 4 ×
 * the payload serialization every submission runs anyway, the baseline measured in the same
 * run; issue 17's absolute 1 ms moved with the machine). The business example: two affiliated persons, four
 * sensitive answers (two dates of birth, an SSN, a passport number), each in answers, payload
 * and person rows.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { compileFormsOnDisk } from '../../src/shared/forms/model/compileNode';
import { toPayloadJson } from '../../src/shared/forms/payload/payload';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { newFieldKey, parseFieldKeys } from '../../src/server/fieldEncryption/keyRing';
import {
  registrationContext,
  sealRegistration,
  sensitivePayloadTrace,
} from '../../src/server/fieldEncryption/registrationSealing';
import { openSealed } from '../../src/server/fieldEncryption/sealedJson';
import { ms, percentile, ratioRow, type Row } from './util';

const SAMPLES = 2000;

function samples(run: () => unknown): number[] {
  for (let i = 0; i < 200; i++) run();
  const out: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const start = performance.now();
    run();
    out.push(performance.now() - start);
  }
  return out;
}

export function fieldEncryptionRows(): Row[] {
  const form = compileFormsOnDisk(process.cwd(), ['business']).get('business')!;
  const answers = structuredClone(form.example) as Answers;
  const ring = parseFieldKeys(newFieldKey('bench'));
  const serialize = (value: Answers) => toPayloadJson(form, value).parts;
  // As the route builds it: the serializer notes where the sensitive answers' entries go.
  const serializeTraced = (value: Answers) => {
    const trace = sensitivePayloadTrace(form, value);
    return { payload: toPayloadJson(form, value, undefined, undefined, trace).parts, trace };
  };
  const { payload, trace } = serializeTraced(answers);
  const seal = () =>
    sealRegistration(ring, {
      registrationId: crypto.randomUUID(),
      form,
      answers,
      payload,
      payloadTrace: trace,
      personsKey: form.registration?.persons,
    });
  const sealed = seal();
  const open = () => {
    const id = sealed.registrationId;
    openSealed(ring, sealed.answers, registrationContext.answers(id));
    openSealed(ring, sealed.payload, registrationContext.payload(id));
    sealed.persons.forEach((person, position) =>
      openSealed(ring, person, registrationContext.person(id, position)),
    );
  };
  const baseline = samples(() => serialize(answers));
  const sealing = samples(seal);
  const opening = samples(open);
  // What tracing adds to the route's own serialization (not in the figure above: shown here).
  const traced = samples(() => serializeTraced(answers));
  const both = sealing.map((value, index) => value + opening[index]!);
  const p95 = percentile(both, 95);
  return [
    ratioRow({
      figure: 'sensitive answers of a business registration: encrypt + decrypt, p95',
      value: p95,
      baseline: percentile(baseline, 95),
      show: ms,
      baselineIs: 'payload serialization p95',
      goal: { atMost: 4 },
    }),
    {
      figure: 'same: encrypt (find sensitive answers, seal) / decrypt, p50',
      value: `${ms(percentile(sealing, 50))} / ${ms(percentile(opening, 50))}`,
      baseline: `payload serialization ${ms(percentile(baseline, 50))}`,
      ratio: '-',
      goal: '-',
      met: null,
    },
    {
      figure:
        'same: payload serialization as the route runs it (sensitive entries traced), p50 / p95',
      value: `${ms(percentile(traced, 50))} / ${ms(percentile(traced, 95))}`,
      baseline: `untraced ${ms(percentile(baseline, 50))} / ${ms(percentile(baseline, 95))}`,
      ratio: '-',
      goal: '-',
      met: null,
    },
  ];
}
