// How the Reports tab writes its figures: turnaround hours, and the counts on a chart's scale.

/** Whole hours as "30 h" or, from two days, "3 d 4 h"; "–" when there is none. */
export function formatHours(hours: number | null): string {
  if (hours === null) return "–";
  if (hours < 48) return `${hours} h`;
  const rest = hours % 24;
  return rest === 0 ? `${hours / 24} d` : `${Math.floor(hours / 24)} d ${rest} h`;
}

/** A count on a chart's scale: a whole number. */
export const chartCount = (value: number) => String(Math.round(value));
