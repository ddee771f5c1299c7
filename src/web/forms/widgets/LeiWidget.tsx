import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { WidgetProps } from '@rjsf/utils';
import type { LeiRecord } from '../../../shared/api/lei';
import { LEI_LENGTH, leiProblem } from '../../../shared/rules/lei';
import { ApiError } from '../../api/client';
import { getLeiRecord } from '../../api/get-lei-record';
import { SessionRenewalDeclined } from '../../app/sessionExpiry';
import { COUNTRY_CHOICES } from '../countries';
import { engineOf, getByPointer } from '../engine';
import type { Parsed } from '../useBufferedText';
import { TextInput } from './TextInput';
import { visuallyHidden } from '../../app/theme';

/** What a lookup can fill: the names `ui:options.lookupFills` maps answers' pointers to. */
type LeiFillSource = 'legalName' | 'address' | 'isNonUs' | 'nonUsAddress';

/** LEIs are upper case; spaces (a pasted, grouped LEI) are dropped. */
const parseLei = (raw: string): Parsed => {
  const text = raw.replace(/\s+/g, '').toUpperCase();
  return { text, value: text === '' ? undefined : text };
};

/**
 * A record's headquarters as the lines of a text answer: street lines, 'city, region postal
 * code', country by name.
 */
function addressText(record: LeiRecord): string {
  const cityLine = [record.city, [record.region, record.postalCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const country =
    COUNTRY_CHOICES.find((choice) => choice.value === record.country)?.label ?? record.country;
  return [...record.addressLines, cityLine, country]
    .filter((line) => line.trim() !== '')
    .join('\n');
}

/** The answers a record fills, by pointer, as `fills` (pointer → source) declares them. */
function leiFills(record: LeiRecord, fills: Record<string, unknown>) {
  const sources: Record<LeiFillSource, unknown> = {
    legalName: record.legalName,
    address: addressText(record),
    isNonUs: record.isNonUs,
    // Only a non-US headquarters is a non-US address; a US one leaves the answer alone.
    nonUsAddress: record.isNonUs ? addressText(record) : undefined,
  };
  const writes: Record<string, unknown> = {};
  for (const [pointer, source] of Object.entries(fills)) {
    const value = typeof source === 'string' ? sources[source as LeiFillSource] : undefined;
    if (value !== undefined) writes[pointer] = value;
  }
  return writes;
}

type Status = 'idle' | 'checksum' | 'lookingUp' | 'found' | 'notFound' | 'failed';

/**
 * The LEI (business §5.5, §7.1): typed or pasted, upper-cased. A complete LEI (20 characters)
 * whose ISO 17442 check digits fail shows the schema's `x-lei.checksum` message at once and is
 * never looked up. A well-formed one is looked up on our server, and the record fills the answers
 * that `ui:options.lookupFills` names (pointer → 'legalName' | 'address' | 'isNonUs' |
 * 'nonUsAddress'), through the form's answer writer, as if the user had typed them. A failed
 * lookup is logged and noted under the field; the user types the name and address instead. An
 * expired session asks to sign in again in place and looks up again (sessionExpiry.ts).
 * Status texts come from `ui:options` (lookingUpText, foundText, notFoundText for an LEI the
 * registry has no entity for, failedText for a registry that did not answer). When the LEI is
 * changed, the answers the previous one filled are cleared again, unless the applicant edited
 * them since (issue 38 §4): a name and address must not outlive the LEI they came from.
 */
export function LeiWidget(props: WidgetProps) {
  const { value, schema, options, registry } = props;
  const engine = engineOf(registry);
  const [status, setStatus] = useState<Status>('idle');
  // The LEI whose record was last asked for: the same LEI typed again does not refill answers the
  // user may have corrected since. A restored answer counts as looked up.
  const lookedUp = useRef<string | undefined>(typeof value === 'string' ? value : undefined);
  const request = useRef<AbortController | null>(null);
  const fills = options.lookupFills;
  /** What the last record filled, by pointer, and the LEI it was for. */
  const filled = useRef<{ lei: string; writes: Record<string, unknown> } | undefined>(undefined);
  const messages = schema['x-lei'] as Record<string, string> | undefined;

  useEffect(() => () => request.current?.abort(), []);

  const lookUp = useCallback(
    (lei: string) => {
      request.current?.abort();
      const controller = new AbortController();
      request.current = controller;
      setStatus('lookingUp');
      getLeiRecord(lei, controller.signal).then(
        (record) => {
          if (controller.signal.aborted) return;
          const declared =
            fills && typeof fills === 'object' ? (fills as Record<string, unknown>) : {};
          const writes = leiFills(record, declared);
          engine?.writer.write(writes);
          filled.current = { lei, writes };
          setStatus('found');
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          lookedUp.current = undefined;
          // Signed out and not signed in again: nothing was looked up (the page says why).
          if (error instanceof SessionRenewalDeclined) {
            setStatus('idle');
            return;
          }
          // The registry answered, and has no such entity: not a failure to try again later.
          if (error instanceof ApiError && error.status === 404) {
            setStatus('notFound');
            return;
          }
          console.warn(`LEI lookup of ${lei} failed`, error);
          setStatus('failed');
        },
      );
    },
    [engine, fills],
  );

  const onParsed = useCallback(
    ({ text }: Parsed) => {
      // Another LEI than the one that filled answers: those answers leave with it, unless the
      // applicant changed them since (they are then the applicant's own).
      const previous = filled.current;
      if (previous && text !== previous.lei) {
        filled.current = undefined;
        const answers = engine?.answers.get();
        const clears: Record<string, unknown> = {};
        for (const [pointer, written] of Object.entries(previous.writes)) {
          if (getByPointer(answers, pointer) === written) clears[pointer] = undefined;
        }
        if (Object.keys(clears).length > 0) engine?.writer.write(clears);
      }
      if (text.length !== LEI_LENGTH) {
        request.current?.abort();
        setStatus('idle');
        return;
      }
      const problem = leiProblem(text);
      if (problem) {
        request.current?.abort();
        setStatus(problem === 'checksum' ? 'checksum' : 'idle');
        return;
      }
      if (text === lookedUp.current) return;
      lookedUp.current = text;
      lookUp(text);
    },
    [lookUp, engine],
  );

  const text = (key: string) => (typeof options[key] === 'string' ? options[key] : undefined);
  let helperText: ReactNode;
  if (status === 'checksum' && messages?.checksum) {
    helperText = (
      <Box component="span" sx={{ color: 'error.main' }}>
        {messages.checksum}
      </Box>
    );
  } else if (status === 'lookingUp') {
    helperText = (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
        <CircularProgress size={12} aria-hidden />
        {text('lookingUpText')}
      </Box>
    );
  } else if (status === 'found') {
    helperText = text('foundText');
  } else if (status === 'notFound') {
    helperText = text('notFoundText');
  } else if (status === 'failed') {
    helperText = text('failedText');
  }

  const announcement =
    status === 'checksum'
      ? messages?.checksum
      : status === 'idle'
        ? undefined
        : text(`${status}Text`);
  return (
    <>
      <TextInput
        {...props}
        parse={parseLei}
        onParsed={onParsed}
        helperText={helperText}
        autoComplete="off"
      />
      {/* Always present, so screen readers announce each change of the lookup's status. */}
      <Box component="span" role="status" sx={visuallyHidden}>
        {announcement}
      </Box>
    </>
  );
}
