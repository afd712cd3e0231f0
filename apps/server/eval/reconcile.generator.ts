/**
 * Synthetic statements and invoices with known truth, for measuring reconciliation precision and recall and for the
 * 10,000 × 10,000 bench. Seeded and deterministic. Two families:
 *   - 'dev': the family the matcher was tuned on;
 *   - 'holdout': other vendors, other banks' description styles, other proportions and currencies. Kept out of all
 *     tuning: read its figures only, never its single failures.
 * What each invoice gets: an exact payment (named in several bank styles, or not named at all), a payment with a fee,
 * a payment in another currency, a batch payment with other invoices, a partial payment, or none. Noise: credits and
 * refunds of invoice amounts, decoys with an invoice's amount from another merchant, same-vendor charges far from any
 * invoice date, and everyday debits.
 */

import { tableRate } from '../src/bank/reconcile/fx-rates';
import type { ReconcileInvoice } from '../src/bank/reconcile/reconcile';
import type { StatementTransaction } from '../src/bank/statement.types';
import { mulberry32 } from './invoice.generator';

export type ReconcileFamily = 'dev' | 'holdout';

export interface ReconcileCase {
  transactions: StatementTransaction[];
  invoices: ReconcileInvoice[];
  /** The true pairs: transaction index → invoice id. Invoices and transactions not listed have no match. */
  truth: Map<number, string>;
}

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const DEV_VENDORS = [
  'ACME Software GmbH',
  'Globex Corporation',
  'Initech Ltd',
  'Umbrella Consulting SARL',
  'Hooli Inc.',
  'Stark Industries Ltd',
  'Wayne Enterprises LLC',
  'Müller & Söhne GmbH',
  'Bäckerei Schäfer KG',
  'Papeterie Lefèvre SAS',
  'Studio Rossi S.r.l.',
  'Vandelay Industries B.V.',
  'Pied Piper Inc',
  'Cyberdyne Systems Corp.',
  'Soylent Foods AG',
  'Tyrell Corporation',
  'Dunder Mifflin Paper Company',
  'Oceanic Airlines S.A.',
  'Gringotts Bank plc',
  'Monsters Inc.',
  'Wonka Industries Ltd',
  'Aperture Science GmbH',
  'Black Mesa Research LLC',
  'Sterling Cooper Advertising',
  'Los Pollos Hermanos S.L.',
  'Krusty Krab Ltd',
  'Nakatomi Trading Corp',
  'Prestige Worldwide Inc',
  'Blue Sun Corporation',
  'Weyland-Yutani Corp',
];
const HOLDOUT_VENDORS = [
  'Transportes Ibáñez S.L.U.',
  'Ferramenta Bianchi S.p.A.',
  'Constructii Ionescu S.R.L.',
  'Bakkerij de Vries V.O.F.',
  'Drukkerij Jansen B.V.',
  'Électricité Moreau EURL',
  'Nordlicht Energie UG',
  'Hofmann Logistik GmbH & Co. KG',
  'Caffè Esposito S.n.c.',
  'Gómez y Asociados S.A.',
  'Van den Berg Installatie N.V.',
  'Popescu Consulting PFA',
  'Brightwater Hosting Ltd',
  'Kestrel Analytics Inc.',
  'Fernandes Têxteis Lda',
  'Zürcher Druckerei AG',
  'Atlas Cloud Services LLC',
  'Meridian Legal LLP',
  'Østergaard Design ApS',
  'Ribeiro & Filhos SA',
];
const EVERYDAY = ['REWE SAGT DANKE', 'ARAL TANKSTELLE', 'DB VERTRIEB', 'LIDL DIENSTL', 'MIETE BUERO', 'SHELL 1234'];
const DECOY_MERCHANTS = ['IKEA DEUTSCHLAND', 'MEDIA MARKT', 'ZALANDO SE', 'SATURN ONLINE', 'DECATHLON', 'OTTO GMBH'];

function iso(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}
const BASE_DAY = Math.round(Date.UTC(2025, 0, 1) / 86_400_000);

/** How banks write a vendor: upper case, legal form kept or not, diacritics stripped, truncated, run together. */
function bankName(r: Rng, vendor: string, family: ReconcileFamily): string {
  let name = vendor;
  if (r() < 0.5)
    name = name.replace(
      /\s+(GmbH.*|KG|AG|UG|SARL|SAS|S\.r\.l\.|S\.R\.L\.|B\.V\.|N\.V\.|V\.O\.F\.|Ltd|LLC|LLP|Inc\.?|Corp\.?|plc|S\.A\.|S\.L\.U?\.|S\.p\.A\.|S\.n\.c\.|EURL|PFA|Lda|ApS|SA)$/,
      '',
    );
  if (r() < 0.7) name = name.toUpperCase();
  if (r() < 0.4) name = name.normalize('NFKD').replace(/\p{M}/gu, '');
  const cut = family === 'dev' ? 22 : 18;
  if (r() < 0.4) name = name.slice(0, cut);
  if (r() < 0.1) name = name.replace(/\s+/g, '');
  return name.trim();
}

function description(
  r: Rng,
  family: ReconcileFamily,
  name: string,
  number: string | null,
): {
  description: string;
  counterpartyName: string | null;
} {
  const ref = number && r() < (family === 'dev' ? 0.45 : 0.3) ? number : null;
  const styles =
    family === 'dev'
      ? [
          () => ({ description: `SEPA-Ueberweisung ${name}${ref ? ` RE ${ref}` : ''}`, counterpartyName: null }),
          () => ({ description: `Kartenzahlung ${name} ${int(r, 1, 28)}.${int(r, 1, 12)}.`, counterpartyName: null }),
          () => ({ description: `CARD PAYMENT ${name}${ref ? ` INV ${ref}` : ''}`, counterpartyName: null }),
          () => ({ description: `Lastschrift ${ref ?? `Kunde ${int(r, 10000, 99999)}`}`, counterpartyName: name }),
        ]
      : [
          () => ({
            description: `PRLV SEPA ${name} ${ref ? `FACT ${ref}` : `REF ${int(r, 100000, 999999)}`}`,
            counterpartyName: null,
          }),
          () => ({
            description: `BONIFICO A FAVORE DI ${name}${ref ? ` FATTURA ${ref}` : ''}`,
            counterpartyName: null,
          }),
          () => ({ description: `Transferencia ${ref ?? ''}`.trim(), counterpartyName: name }),
          () => ({ description: `BETALING ${name} PAS ${int(r, 100, 999)}`, counterpartyName: null }),
          () => ({
            description: `Plata OP ${int(r, 1, 999)} ${ref ? `factura ${ref}` : ''}`.trim(),
            counterpartyName: name,
          }),
        ];
  return pick(r, styles)();
}

function invoiceAmount(r: Rng): number {
  // Log-uniform 5 .. 5,000 with cents; a few round amounts.
  const major = Math.exp(Math.log(5) + r() * (Math.log(5000) - Math.log(5)));
  if (r() < 0.08) return Math.max(10, Math.round(major / 10) * 10) * 100;
  return Math.round(major * 100);
}

/** Days from invoice to payment: mostly within the usual terms, some late, a few card charges a day early. */
function paymentDelay(r: Rng, family: ReconcileFamily): number {
  const x = r();
  if (x < 0.05) return -int(r, 1, 2);
  if (x < (family === 'dev' ? 0.85 : 0.8)) return int(r, 0, 30);
  if (x < 0.95) return int(r, 31, 45);
  return int(r, 46, 90);
}

export function generateReconcileCase(options: {
  invoices: number;
  seed: number;
  family: ReconcileFamily;
  /** Fill up with everyday debits and credits to at least this many transactions. */
  transactions?: number;
}): ReconcileCase {
  const r = mulberry32(options.seed);
  const family = options.family;
  const vendors = family === 'dev' ? DEV_VENDORS : HOLDOUT_VENDORS;
  const invoices: ReconcileInvoice[] = [];
  interface Draft {
    tx: Omit<StatementTransaction, 'valueDate' | 'balanceAfterMinor'>;
    pays: string | null;
  }
  const drafts: Draft[] = [];
  const span = Math.max(120, Math.round(options.invoices / 8));
  const add = (
    day: number,
    amountMinor: number,
    text: { description: string; counterpartyName: string | null },
    pays: string | null,
    type: 'debit' | 'credit' = 'debit',
  ) => {
    drafts.push({
      tx: {
        date: iso(day),
        description: text.description,
        amountMinor,
        type,
        currency: 'EUR',
        reference: null,
        counterpartyName: text.counterpartyName,
        counterpartyIban: null,
      },
      pays,
    });
  };
  const fx = family === 'dev' ? ['USD', 'GBP'] : ['USD', 'GBP', 'CHF', 'PLN'];
  // Subscriptions: a vendor charging the same amount every month.
  const subscriptions = vendors
    .slice(0, 4)
    .map((v) => ({ vendor: v, amount: invoiceAmount(r), offset: int(r, 0, 27), count: 0 }));
  let batch: ReconcileInvoice[] = [];

  for (let i = 0; i < options.invoices; i++) {
    const id = `inv-${options.seed}-${i}`;
    const sub = r() < 0.1 ? pick(r, subscriptions) : null;
    // Subscriptions bill monthly, each month once.
    const day = sub ? BASE_DAY + sub.offset + 30 * sub.count++ : BASE_DAY + int(r, 0, span);
    const vendor = sub?.vendor ?? pick(r, vendors);
    const number = `${pick(r, ['INV', 'RE', 'F', 'FA', 'NR'])}-${2025 + Math.floor((day - BASE_DAY) / 365)}-${String(int(r, 1, 99999)).padStart(5, '0')}`;
    const outcome = r();
    const foreign = !sub && outcome >= 0.6 && outcome < (family === 'dev' ? 0.68 : 0.7);
    const currency = foreign ? pick(r, fx) : 'EUR';
    const amountMinor = sub?.amount ?? invoiceAmount(r);
    const invoice: ReconcileInvoice = {
      id,
      vendor,
      amountMinor,
      currency,
      invoiceDate: iso(day),
      invoiceNumber: r() < 0.9 ? number : null,
    };
    invoices.push(invoice);
    // Subscriptions are charged to a card on the invoice date or a day or two after.
    const paid = day + (sub ? int(r, 0, 2) : paymentDelay(r, family));
    const name = bankName(r, vendor, family);
    if (outcome < 0.52) {
      // Exact; one in twelve with nothing but the amount and a terminal number.
      const text =
        r() < 0.08
          ? { description: `POS ${int(r, 1000, 9999)} ${iso(paid)}`, counterpartyName: null }
          : description(r, family, name, invoice.invoiceNumber);
      add(paid, amountMinor, text, id);
    } else if (outcome < 0.6) {
      // A fee on top (or taken off), within the tolerance.
      const fee = Math.max(1, Math.min(2500, Math.round(amountMinor * (0.002 + r() * 0.013))));
      add(paid, amountMinor + (r() < 0.8 ? fee : -fee), description(r, family, name, invoice.invoiceNumber), id);
    } else if (foreign) {
      // Converted at the day's rate: the yearly table rate moved by up to ±3 %, plus the card's 0–2 % spread.
      const rate = tableRate(currency, 'EUR', iso(paid))! * (1 + (r() - 0.5) * 0.06) * (1 + r() * 0.02);
      const eur = Math.round((amountMinor / 100) * rate * 100);
      const text = description(r, family, name, invoice.invoiceNumber);
      if (r() < 0.4) text.description += ` ORIG ${currency} ${(amountMinor / 100).toFixed(2)}`;
      add(paid, eur, text, id);
    } else if (outcome < 0.74) {
      // Paid together with the next one or two invoices of the batch.
      batch.push(invoice);
      if (batch.length >= int(r, 2, 3)) {
        const total = batch.reduce((s, b) => s + (b.currency === 'EUR' ? b.amountMinor! : 0), 0);
        add(paid, total, { description: `SAMMELZAHLUNG ${name}`, counterpartyName: null }, null);
        batch = [];
      }
    } else if (outcome < 0.78) {
      // A partial payment: never the invoice's payment in a one-to-one sense.
      add(paid, Math.round(amountMinor * (0.3 + r() * 0.4)), description(r, family, name, invoice.invoiceNumber), null);
    }
    // else: unpaid.

    // Noise around this invoice.
    const noise = r();
    if (noise < 0.06) {
      // A decoy: this invoice's amount, another merchant, close by.
      add(
        day + int(r, -3, 20),
        amountMinor,
        { description: `Kartenzahlung ${pick(r, DECOY_MERCHANTS)}`, counterpartyName: null },
        null,
      );
    } else if (noise < 0.09) {
      // The same vendor and amount, far from the invoice (last or next year's charge).
      add(day + pick(r, [-1, 1]) * int(r, 200, 330), amountMinor, description(r, family, name, null), null);
    } else if (noise < 0.13) {
      // A refund of it: a credit never pays an invoice.
      add(
        paid + int(r, 1, 20),
        amountMinor,
        { description: `Gutschrift ${name}`, counterpartyName: null },
        null,
        'credit',
      );
    } else if (noise < 0.25) {
      add(day + int(r, 0, 30), int(r, 150, 25000), { description: pick(r, EVERYDAY), counterpartyName: null }, null);
    }
  }
  const lastDay = BASE_DAY + span + 90;
  while (drafts.length < (options.transactions ?? 0)) {
    add(
      BASE_DAY + int(r, 0, lastDay - BASE_DAY),
      int(r, 150, 50000),
      { description: pick(r, EVERYDAY), counterpartyName: null },
      null,
      r() < 0.2 ? 'credit' : 'debit',
    );
  }
  // Statement order: by booking date, then as generated.
  const order = drafts
    .map((d, i) => ({ d, i }))
    .sort((a, b) => (a.d.tx.date < b.d.tx.date ? -1 : a.d.tx.date > b.d.tx.date ? 1 : a.i - b.i));
  const transactions: StatementTransaction[] = [];
  const truth = new Map<number, string>();
  for (const { d } of order) {
    if (d.pays) truth.set(transactions.length, d.pays);
    transactions.push({ ...d.tx, valueDate: null, balanceAfterMinor: null });
  }
  return { transactions, invoices, truth };
}

export interface PrecisionRecall {
  truth: number;
  predicted: number;
  correct: number;
  precision: number;
  recall: number;
}

export function scoreMatches(
  truth: Map<number, string>,
  matches: Array<{ transactionIndex: number; invoiceId: string }>,
): PrecisionRecall {
  const correct = matches.filter((m) => truth.get(m.transactionIndex) === m.invoiceId).length;
  return {
    truth: truth.size,
    predicted: matches.length,
    correct,
    precision: matches.length ? correct / matches.length : 1,
    recall: truth.size ? correct / truth.size : 1,
  };
}
