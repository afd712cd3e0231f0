import type {
  ParsedStatement,
  StatementIssue,
  StatementReader,
  StatementReadResult,
  StatementTransaction,
} from './statement.types';
import {
  currencyCode,
  decimalMinor,
  decodeText,
  emptyStatement,
  fail,
  headText,
  isoDate,
  issue,
  joinText,
  transaction,
} from './statement.util';

/**
 * SWIFT MT940 (end of day) and MT942 (interim) statements, several per file, with or without the {1:}{2:}{4: envelope.
 * Own parser: the npm ones (mt940js, mt940-js, swiftmessageparser) are single-maintainer, little used, and either
 * throw on the first odd tag or drop the German structured :86: subfields; the format is small enough to read here.
 * Broken tags become warnings with their line number; nothing throws.
 */

interface Tag {
  tag: string;
  value: string;
  line: number;
}

const TAG_RE = /^:(\d{2}[A-Z]?|NS):(.*)$/;

/** Splits the text into tags; continuation lines join their tag with '\n'. */
function tags(text: string): Tag[] {
  const out: Tag[] = [];
  // A tag split after its first colon (":\n86:") is joined back.
  const lines = text.replace(/(^|\n):\r?\n(?=\d{2}[A-Z]?:)/g, '$1:').split(/\r\n|\r|\n/);
  lines.forEach((raw, i) => {
    const line = raw.replace(/^\{4:/, '').replace(/^\{[1-5]:[^}]*\}+/, '');
    const m = TAG_RE.exec(line);
    if (m) {
      out.push({ tag: m[1]!, value: m[2]!, line: i + 1 });
      return;
    }
    const last = out[out.length - 1];
    if (!last) return;
    if (/^-\}?\s*$|^\}\s*$/.test(line)) {
      out.push({ tag: 'END', value: '', line: i + 1 });
      return;
    }
    last.value += `\n${line}`;
  });
  return out;
}

function yymmdd(s: string): string | null {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(s);
  if (!m) return null;
  const yy = Number(m[1]);
  return isoDate(yy >= 70 ? 1900 + yy : 2000 + yy, Number(m[2]), Number(m[3]));
}

/** :60F:/:62F:/:64: → C|D YYMMDD CUR amount. */
function balance(value: string): { minor: number; date: string | null; currency: string | null } | null {
  const m = /^\s*([CD])(\d{6})([A-Z]{3})?(\d[\d,.]*)/.exec(value);
  if (!m) return null;
  const currency = m[3] ?? null;
  const minor = decimalMinor(m[4]!, currency);
  if (minor === null) return null;
  return { minor: m[1] === 'D' ? -minor : minor, date: yymmdd(m[2]!), currency };
}

// value date, [entry MMDD], mark (C, D, RC, RD, EC, ED), [funds code], amount, [type N/S/F + 3], customer ref, [//bank ref], [\n details]
const LINE61 =
  /^(\d{6})(\d{4})?(R?[CD]|E[CD])([A-Z])?(\d+(?:,\d*)?)([NSF].{3})?([^\n]*?)(?:\/\/([^\n]*))?(?:\n([\s\S]*))?$/;

/** Booking date MMDD next to a value date, across a year end either way. */
function entryDate(valueDate: string, mmdd: string): string | null {
  const y = Number(valueDate.slice(0, 4));
  const vm = Number(valueDate.slice(5, 7));
  const m = Number(mmdd.slice(0, 2));
  const d = Number(mmdd.slice(2, 4));
  const year = vm === 12 && m === 1 ? y + 1 : vm === 1 && m === 12 ? y - 1 : y;
  return isoDate(year, m, d);
}

interface Details {
  text: string;
  name: string | null;
  iban: string | null;
}

/**
 * :86: in the German structured form (GVC, then ?00 posting text, ?20-?29 and ?60-?63 purpose, ?30 BIC, ?31 account,
 * ?32/?33 name), the Dutch/ISO /KEY/value form (/NAME/, /IBAN/, /REMI/), or free text.
 */
function details86(raw: string): Details {
  const structured = /^\s*(\d{3})([?@])/.exec(raw);
  if (structured) {
    const sep = structured[2]!;
    const body = raw.slice(structured[0].length - 1).replace(/\r?\n/g, '');
    const fields = new Map<string, string>();
    for (const part of body.split(sep).slice(1)) {
      const key = part.slice(0, 2);
      fields.set(key, (fields.get(key) ?? '') + part.slice(2));
    }
    const purpose = [...fields.entries()]
      .filter(([k]) => (k >= '20' && k <= '29') || (k >= '60' && k <= '63'))
      .map(([, v]) => v)
      .join('');
    const name = joinText(fields.get('32'), fields.get('33')) || null;
    const account = fields.get('31')?.replace(/\s+/g, '') || null;
    return {
      text: joinText(name, fields.get('00'), purpose),
      name,
      iban: account && /^[A-Z]{2}\d{2}/.test(account) ? account : null,
    };
  }
  if (/^\s*\/[A-Z]{2,5}\//.test(raw)) {
    const flat = raw.replace(/\r?\n/g, '');
    const field = (k: string) => new RegExp(`/${k}/([^/]*(?:/(?![A-Z]{2,5}/)[^/]*)*)`).exec(flat)?.[1]?.trim() || null;
    const name = field('NAME');
    const iban = field('IBAN');
    return { text: joinText(name, field('REMI') ?? field('TRTP'), field('EREF')), name, iban };
  }
  return { text: joinText(raw), name: null, iban: null };
}

function readStatement(group: Tag[], warnings: StatementIssue[]): ParsedStatement {
  const st = emptyStatement();
  st.warnings = warnings;
  let current: StatementTransaction | null = null;
  let detailParts: string[] = [];
  const flush = () => {
    if (current && detailParts.length) {
      const d = details86(detailParts.join('\n'));
      current.description = joinText(d.text, current.description) || current.description;
      current.counterpartyName = d.name;
      current.counterpartyIban = d.iban;
    }
    detailParts = [];
  };
  for (const t of group) {
    switch (t.tag) {
      case '25':
        // "NL10BUNQ2290325473EUR", "12345678/EUR": the account's currency after it is not part of the number.
        st.accountNumber =
          t.value
            .trim()
            .replace(/\s+/g, '')
            .replace(/^([A-Z]{2}\d{2}[A-Z0-9]{10,30}?)\/?([A-Z]{3})$/, (all, acct: string, cur: string) =>
              currencyCode(cur) && /\d$/.test(acct) ? acct : all,
            ) || null;
        break;
      case '60F':
      case '60M': {
        const b = balance(t.value);
        if (!b) st.warnings.push(issue('tag_unreadable', `:${t.tag}: is not a balance: "${t.value.trim()}"`, t.line));
        else if (st.openingBalanceMinor === null) {
          st.openingBalanceMinor = b.minor;
          st.currency = b.currency ?? st.currency;
          st.startDate = b.date;
        }
        break;
      }
      case '62F':
      case '62M': {
        const b = balance(t.value);
        if (!b) st.warnings.push(issue('tag_unreadable', `:${t.tag}: is not a balance: "${t.value.trim()}"`, t.line));
        else {
          st.closingBalanceMinor = b.minor;
          st.currency ??= b.currency;
          st.endDate = b.date;
        }
        break;
      }
      case '34F':
        st.currency ??= currencyCode(t.value.slice(0, 3));
        break;
      case '61': {
        flush();
        current = null;
        // Some exports wrap the line before the amount ("CR\n30,00N062"): try it joined too.
        const m = LINE61.exec(t.value.trim()) ?? LINE61.exec(t.value.trim().replace(/\r?\n/, ''));
        const valueDate = m ? yymmdd(m[1]!) : null;
        if (!m || !valueDate) {
          st.warnings.push(
            issue('tag_unreadable', `:61: could not be read: "${t.value.split('\n')[0]!.trim()}"`, t.line),
          );
          break;
        }
        const mark = m[3]!;
        const minor = decimalMinor(m[5]!, st.currency);
        if (minor === null) {
          st.warnings.push(issue('tag_unreadable', `:61: amount "${m[5]}" is not a number`, t.line));
          break;
        }
        // RC reverses a credit (money leaves), RD reverses a debit (money comes back).
        const type = mark === 'D' || mark === 'RC' || mark === 'ED' ? 'debit' : 'credit';
        const booking = m[2] ? entryDate(valueDate, m[2]) : null;
        const customerRef = m[7]?.trim() || null;
        const bankRef = m[8]?.trim() || null;
        const supplementary = m[9]?.trim() || null;
        current = transaction({
          date: booking ?? valueDate,
          valueDate,
          amountMinor: minor,
          type,
          currency: st.currency ?? 'XXX',
          reference: customerRef && customerRef !== 'NONREF' ? customerRef : bankRef,
          description: joinText(supplementary),
        });
        st.transactions.push(current);
        break;
      }
      case '86':
        if (current) detailParts.push(t.value);
        break;
      default:
        break;
    }
  }
  flush();
  if (st.currency) for (const tx of st.transactions) if (tx.currency === 'XXX') tx.currency = st.currency;
  return st;
}

export function parseMt940(text: string): StatementReadResult {
  const all = tags(text);
  if (!all.some((t) => t.tag === '20') && !all.some((t) => t.tag === '61')) {
    return fail('unsupported_format', 'No MT940/MT942 tags (:20:, :61:) found.');
  }
  const statements: ParsedStatement[] = [];
  let group: Tag[] = [];
  const orphan: StatementIssue[] = [];
  const close = () => {
    if (group.some((t) => t.tag === '61' || t.tag.startsWith('60') || t.tag.startsWith('62'))) {
      statements.push(readStatement(group, []));
    }
    group = [];
  };
  for (const t of all) {
    if (t.tag === '20') close();
    if (t.tag === 'END') {
      close();
      continue;
    }
    group.push(t);
  }
  close();
  if (statements.length === 0)
    return fail('no_statements', 'The MT940 file holds no statement with balances or transactions.');
  statements[0]!.warnings.unshift(...orphan);
  // Currencies can only be known after :60F:; a :61: before it keeps the statement's currency when it turns up.
  for (const st of statements) {
    if (!st.currency) st.warnings.push(issue('currency_unknown', 'No :60F:/:62F: balance states the currency.'));
  }
  return { ok: true, format: 'mt940', statements };
}

export const mt940Reader: StatementReader = {
  format: 'mt940',
  accepts(head, filename) {
    const t = headText(head);
    if (/(^|\n|\{4:\s*\n?):20:[^\n]*\r?\n(?:[\s\S]{0,400}?):25:/.test(t)) return true;
    return /\.(sta|mt940|mt942|940|942)$/i.test(filename) && /:(20|25|61):/.test(t);
  },
  async read(bytes) {
    return parseMt940(decodeText(bytes).text);
  },
};
