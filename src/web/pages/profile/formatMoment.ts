import { format } from 'date-fns';

/** A moment as the profile page shows it, in the browser's time zone: "Nov 25, 2026, 4:05 PM". */
export function formatMoment(iso: string): string {
  return format(new Date(iso), 'MMM d, yyyy, h:mm a');
}
