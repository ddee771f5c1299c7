import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useQueries } from '@tanstack/react-query';
import { PageTitle } from '../../app/PageTitle';
import { Loading } from '../../app/guards';
import { applicationQueryOptions } from '../../api/applications';
import { registrationKind, registrationKinds } from '../../forms/registrationForms';

/** A registration kind's form id (`individual`, `business`, or any folder's that declares one). */
type AccountType = string;
/** Where the account-type choice is remembered (not a draft: logout keeps it). */
export const ACCOUNT_TYPE_STORAGE_KEY = 'clearing.registration.accountType';

function rememberedAccountType(): AccountType | null {
  const value = localStorage.getItem(ACCOUNT_TYPE_STORAGE_KEY);
  return value && registrationKind(value) ? value : null;
}

function rememberAccountType(type: AccountType): void {
  localStorage.setItem(ACCOUNT_TYPE_STORAGE_KEY, type);
}

/** Called when a registration succeeds (access §4). */
export function forgetAccountType(): void {
  localStorage.removeItem(ACCOUNT_TYPE_STORAGE_KEY);
}

/** The choices: every registration form of the catalog, as its schema offers it. */
const OPTIONS = registrationKinds.map((kind) => ({
  value: kind.id,
  label: kind.choice.label,
  description: kind.choice.description,
}));

/**
 * /clearing/registration: which registration (Individual, Business, and any other registration
 * form of the catalog, in its schema's order). A remembered choice goes straight to its form
 * unless the user came back on purpose (?returned).
 */
export function RegistrationChoicePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const remembered = rememberedAccountType();
  const [choice, setChoice] = useState<AccountType | null>(remembered);
  // On a device that remembers no choice, an application saved elsewhere decides: signing in
  // anywhere opens it where it was left.
  const asksServer = !remembered && !params.has('returned');
  const saved = useQueries({
    queries: OPTIONS.map((option) => ({
      ...applicationQueryOptions(option.value),
      enabled: asksServer,
      retry: false,
    })),
  });

  if (remembered && !params.has('returned')) {
    return <Navigate to={`/registration/${remembered}`} replace />;
  }
  if (asksServer) {
    if (saved.some((query) => query.isPending)) return <Loading />;
    const open = OPTIONS.find((option, index) => {
      const application = saved[index]?.data;
      return application && application.status !== 'submitted';
    });
    if (open) {
      rememberAccountType(open.value);
      return <Navigate to={`/registration/${open.value}`} replace />;
    }
  }

  function getStarted() {
    if (!choice) return;
    rememberAccountType(choice);
    void navigate(`/registration/${choice}`);
  }

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', px: 2, py: 6 }}>
      <PageTitle title="Registration" />
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 560, p: 4 }}>
        <Typography variant="h1" gutterBottom>
          Registration
        </Typography>
        <FormControl sx={{ width: '100%' }}>
          <FormLabel id="account-type-label" sx={{ mb: 1 }}>
            Which type of account are you registering?
          </FormLabel>
          <RadioGroup
            aria-labelledby="account-type-label"
            name="accountType"
            value={choice ?? ''}
            onChange={(event) => setChoice(event.target.value)}
          >
            {OPTIONS.map((option) => (
              <FormControlLabel
                key={option.value}
                value={option.value}
                control={<Radio />}
                sx={{ alignItems: 'flex-start', my: 1 }}
                label={
                  <Box sx={{ pt: 1 }}>
                    <Typography sx={{ fontWeight: 600 }}>{option.label}</Typography>
                    <Typography variant="body2" color="text.secondary">
                      {option.description}
                    </Typography>
                  </Box>
                }
              />
            ))}
          </RadioGroup>
        </FormControl>
        <Button
          variant="contained"
          size="large"
          fullWidth
          sx={{ mt: 2 }}
          disabled={!choice}
          onClick={getStarted}
        >
          Get Started
        </Button>
      </Paper>
    </Box>
  );
}
