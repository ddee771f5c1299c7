/**
 * B2, Business Details: react-hook-form (uncontrolled `register`) with MUI inputs, one per leaf
 * question of the step in form order, the DBA names as text inputs, and the 50 affiliated
 * persons as a hand-written table (name, title, ownership, Edit and Remove buttons), as the
 * engine's dialog list draws them. Country choices are native selects, yes/no questions radios,
 * as in bench/pages/b2.tsx.
 */
import { useForm } from 'react-hook-form';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { deref, fieldsInOrder } from '../../src/shared/forms/walk/schemaWalk';
import type { Answers, JsonSchema } from '../../src/shared/forms/model/schemaTypes';
import { mount } from './probe';
import { Frame } from './shared';
import { businessAnswers, stepSchema, stepUiSchema } from './business';

const LISTS = new Set(['dba', 'affiliatedPersons']);
const LEAVES = fieldsInOrder(stepSchema, stepUiSchema as never).filter(
  (field) => field.leaf && !LISTS.has(field.keys[0]!),
);
const example = businessAnswers();
const persons = example.affiliatedPersons as Answers[];

function choicesOf(schema: JsonSchema) {
  return schema.oneOf?.every((choice) => choice.const !== undefined)
    ? schema.oneOf.map((choice) => ({ value: String(choice.const), label: choice.title ?? '' }))
    : undefined;
}

function HookForm() {
  const { register } = useForm<Answers>({ defaultValues: example, mode: 'onTouched' });
  return (
    <form noValidate>
      <Stack spacing={2}>
        {LEAVES.map((field) => {
          const schema = deref(field.schema, stepSchema);
          const name = field.keys.join('.');
          const id = `root_${field.keys.join('_')}`;
          const label = field.schema.title ?? schema.title ?? name;
          const { ref, ...props } = register(name);
          if (schema['x-file']) {
            return (
              <TextField
                key={id}
                id={id}
                type="file"
                label={label}
                inputRef={ref}
                {...props}
                slotProps={{ inputLabel: { shrink: true } }}
              />
            );
          }
          if (schema.type === 'boolean') {
            return (
              <FormControlLabel
                key={id}
                label={label}
                control={<Checkbox id={id} slotProps={{ input: { ref } }} {...props} />}
              />
            );
          }
          const choices = choicesOf(schema);
          if (choices) {
            return (
              <TextField
                key={id}
                id={id}
                select
                label={label}
                inputRef={ref}
                {...props}
                slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
              >
                <option value="" />
                {choices.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </TextField>
            );
          }
          return (
            <TextField
              key={id}
              id={id}
              label={label}
              multiline={Number(schema.maxLength ?? 0) > 400}
              inputRef={ref}
              {...props}
            />
          );
        })}
        {((example.dba as string[] | undefined) ?? []).map((_, i) => (
          <TextField key={`dba-${i}`} id={`root_dba_${i}`} label="DBA" {...register(`dba.${i}`)} />
        ))}
        <Typography>Affiliated persons</Typography>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Title</TableCell>
              <TableCell>Ownership</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {persons.map((person, i) => (
              <TableRow key={i}>
                <TableCell>{`${String(person.firstName)} ${String(person.lastName)}`}</TableCell>
                <TableCell>{String(person.title ?? '')}</TableCell>
                <TableCell>{`${String(person.ownershipPercent ?? '')}%`}</TableCell>
                <TableCell align="right">
                  <Button size="small">Edit</Button>
                  <Button size="small" color="error">
                    Remove
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Button variant="outlined">Add</Button>
      </Stack>
    </form>
  );
}

mount(
  <Frame>
    <HookForm />
  </Frame>,
);
