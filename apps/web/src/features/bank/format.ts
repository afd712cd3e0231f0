/** Spec §9: statement amounts with 2 fraction digits, in the transaction's currency. */
export function formatStatementAmount(amount: number, currency: string | null | undefined): string {
  const code = (currency || 'USD').trim().toUpperCase();
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: code, ...digits }).format(amount);
  } catch {
    return `${code} ${new Intl.NumberFormat('en-US', digits).format(amount)}`;
  }
}

/** Spec §2: a debit with a minus, anything else with a plus. */
export function signedStatementAmount(amount: number, type: string, currency: string | null | undefined): string {
  return `${type === 'debit' ? '-' : '+'}${formatStatementAmount(Math.abs(amount), currency)}`;
}

/** Spec §2 Bank Analysis: the chosen file's size in MB. */
export function sizeInMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

/** A YYYY-MM-DD date as a short local date, without the time-zone shift `new Date('YYYY-MM-DD')` gives. */
export function formatStatementDate(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleDateString();
}

/** The dashboard's three statuses (spec §3): anything but processed or pending counts as failed. */
export function dashboardStatus(status: string): 'processed' | 'pending' | 'failed' {
  return status === 'processed' || status === 'pending' ? status : 'failed';
}

/** The structured exports the same upload call reads besides the PDF. */
export const STRUCTURED_ACCEPT =
  '.csv,.tsv,.txt,.ofx,.qfx,.xml,.camt,.053,.sta,.mt940,.940,.942,.mt942,text/csv,application/xml,text/xml';
/** The names the server takes as a structured export (bank.service STRUCTURED_NAME). */
export const STRUCTURED_NAME = /\.(csv|txt|tsv|ofx|qfx|xml|camt|camt053|053|sta|mt940|940|942|mt942)$/i;
