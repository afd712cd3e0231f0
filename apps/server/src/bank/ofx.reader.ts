import type { ParsedStatement, StatementIssue, StatementReader, StatementReadResult } from './statement.types';
import {
  compactDate,
  currencyCode,
  decimalMinor,
  decodeText,
  emptyStatement,
  fail,
  headText,
  issue,
  joinText,
  transaction,
} from './statement.util';

/**
 * OFX 1.x (SGML, leaf elements left unclosed) and 2.x (XML), bank and credit-card statements, several per file.
 * Own tolerant tokenizer: the npm OFX packages (ofx, node-ofx-parser, ofx-js, ofx-data-extractor) are small, rarely
 * updated, and turn SGML into XML with regexes that break on empty tags and unclosed aggregates; OFX is a plain tag
 * tree, so reading it here is short and never throws. No entities beyond the five predefined ones are expanded.
 */

export const OFX_MAX_BYTES = 50 * 1024 * 1024;

interface OfxNode {
  name: string;
  value: string | null;
  children: OfxNode[];
}

const TOKEN = /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<(\/?)([A-Za-z][\w.]*)[^>]*>|([^<]+)/g;

function unescapeXml(s: string): string {
  return s.replace(
    /&(lt|gt|amp|quot|apos|nbsp);/g,
    (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ' })[e] ?? '',
  );
}

/** Builds the element tree; an element that got text is a leaf and ends at the next tag, closed or not. */
export function parseOfxTree(body: string): OfxNode {
  const root: OfxNode = { name: '#root', value: null, children: [] };
  const stack: OfxNode[] = [root];
  const top = () => stack[stack.length - 1]!;
  const closeTo = (index: number) => {
    // Elements left open between here and the match were empty SGML leaves: their "children" are really siblings.
    while (stack.length - 1 > index) {
      const n = stack.pop()!;
      if (n.value === null && n.children.length > 0 && stack.length - 1 >= index) {
        const parent = top();
        parent.children.push(...n.children);
        n.children = [];
        n.value = '';
      }
    }
  };
  for (const m of body.matchAll(TOKEN)) {
    const [, cdata, slash, name, text] = m;
    if (name) {
      const tag = name.toUpperCase();
      if (top().value !== null && top() !== root) stack.pop();
      if (slash) {
        let i = stack.length - 1;
        while (i > 0 && stack[i]!.name !== tag) i -= 1;
        if (i > 0) {
          closeTo(i);
          const n = stack.pop()!;
          if (n.value === null && n.children.length === 0) n.value = '';
        }
        continue;
      }
      const node: OfxNode = { name: tag, value: null, children: [] };
      top().children.push(node);
      stack.push(node);
    } else if (cdata !== undefined || text !== undefined) {
      const t = cdata ?? unescapeXml(text!);
      const n = top();
      if (n === root || n.children.length > 0) continue;
      if (cdata === undefined && !t.trim()) continue;
      n.value = (n.value ?? '') + t;
    }
  }
  return root;
}

function find(n: OfxNode | undefined, name: string): OfxNode | undefined {
  return n?.children.find((c) => c.name === name);
}

/** Every `name` element in document order, not descending into matches; iterative, so deep nesting cannot overflow. */
function all(root: OfxNode, name: string): OfxNode[] {
  const out: OfxNode[] = [];
  const todo: OfxNode[] = [...root.children].reverse();
  while (todo.length) {
    const n = todo.pop()!;
    if (n.name === name) out.push(n);
    else for (let i = n.children.length - 1; i >= 0; i -= 1) todo.push(n.children[i]!);
  }
  return out;
}

function val(n: OfxNode | undefined, ...path: string[]): string | null {
  let cur = n;
  for (const p of path) cur = find(cur, p);
  const v = cur?.value?.trim();
  return v ? v : null;
}

function readStatement(
  rs: OfxNode,
  bankName: string | null,
): { statement: ParsedStatement; discarded: StatementIssue[] } {
  const st = emptyStatement();
  const discarded: StatementIssue[] = [];
  st.bankName = bankName;
  st.currency = currencyCode(val(rs, 'CURDEF'));
  if (!st.currency) st.warnings.push(issue('currency_unknown', '<CURDEF> is empty or missing.'));
  const acct = find(rs, 'BANKACCTFROM') ?? find(rs, 'CCACCTFROM');
  st.accountNumber = val(acct, 'ACCTID')?.replace(/\s+/g, '') ?? null;
  // A <BANKTRANLIST> left unclosed (some banks' SGML) ends as a leaf whose rows and dates were handed to the
  // statement itself: they are looked for there too.
  const list = find(rs, 'BANKTRANLIST');
  st.startDate = compactDate(val(list, 'DTSTART') ?? val(rs, 'DTSTART'));
  st.endDate = compactDate(val(list, 'DTEND') ?? val(rs, 'DTEND'));
  const rows = list?.children.some((c) => c.name === 'STMTTRN')
    ? list.children.filter((c) => c.name === 'STMTTRN')
    : all(rs, 'STMTTRN');
  const ledger = find(rs, 'LEDGERBAL');
  if (ledger) {
    const raw = val(ledger, 'BALAMT');
    st.closingBalanceMinor = raw === null ? null : decimalMinor(raw, st.currency);
    if (st.closingBalanceMinor === null)
      st.warnings.push(
        issue('balance_unreadable', `<LEDGERBAL><BALAMT> is ${raw === null ? 'empty' : `not a number: "${raw}"`}.`),
      );
  }
  rows.forEach((t, i) => {
    const currency =
      currencyCode(val(t, 'CURRENCY', 'CURSYM')) ?? currencyCode(val(t, 'ORIGCURRENCY', 'CURSYM')) ?? st.currency;
    const rawAmount = val(t, 'TRNAMT');
    const minor = rawAmount === null ? null : decimalMinor(rawAmount, currency);
    const date = compactDate(val(t, 'DTPOSTED'));
    if (minor === null) {
      discarded.push(
        issue(
          'entry_skipped',
          `Transaction ${i + 1}: <TRNAMT> ${rawAmount === null ? 'is missing' : `"${rawAmount}" is not a number`}.`,
          i,
        ),
      );
      return;
    }
    if (!date) {
      discarded.push(
        issue('entry_skipped', `Transaction ${i + 1}: <DTPOSTED> "${val(t, 'DTPOSTED') ?? ''}" is not a date.`, i),
      );
      return;
    }
    const name = val(t, 'NAME') ?? val(t, 'PAYEE', 'NAME');
    const memo = val(t, 'MEMO');
    const balance = val(t, 'ACCTBAL');
    st.transactions.push(
      transaction({
        date,
        valueDate: compactDate(val(t, 'DTAVAIL')),
        description: memo && name && memo.includes(name.trim()) ? joinText(memo) : joinText(name, memo),
        amountMinor: Math.abs(minor),
        type: minor < 0 ? 'debit' : 'credit',
        currency: currency ?? 'XXX',
        balanceAfterMinor: balance ? decimalMinor(balance, currency) : null,
        reference: val(t, 'REFNUM') ?? val(t, 'FITID'),
        counterpartyName: name ? joinText(name) : null,
        counterpartyIban: val(t, 'BANKACCTTO', 'ACCTID'),
      }),
    );
  });
  st.warnings.push(...discarded);
  return { statement: st, discarded };
}

export function parseOfx(text: string): StatementReadResult {
  const start = text.search(/<OFX[\s>]/i);
  if (start === -1) return fail('unsupported_format', 'No <OFX> element found.');
  if (/<!DOCTYPE|<!ENTITY/i.test(text.slice(0, start)))
    return fail('xml_doctype', 'The OFX file declares a DOCTYPE; it is refused.');
  const tree = parseOfxTree(text.slice(start));
  const ofx = find(tree, 'OFX');
  if (!ofx) return fail('ofx_malformed', 'The <OFX> element could not be read.');
  const bankName = val(ofx, 'SIGNONMSGSRSV1', 'SONRS', 'FI', 'ORG');
  const rss = [...all(ofx, 'STMTRS'), ...all(ofx, 'CCSTMTRS')];
  if (rss.length === 0)
    return fail('no_statements', 'The OFX file holds no bank or credit-card statement (<STMTRS>/<CCSTMTRS>).');
  const read = rss.map((rs) => readStatement(rs, bankName));
  const discarded = read.flatMap((r) => r.discarded);
  if (read.every((r) => r.statement.transactions.length === 0) && discarded.length > 0) {
    return { ok: false, errors: discarded };
  }
  return { ok: true, format: 'ofx', statements: read.map((r) => r.statement) };
}

export const ofxReader: StatementReader = {
  format: 'ofx',
  accepts(head, filename) {
    const t = headText(head);
    if (/OFXHEADER|<\?OFX|<OFX[\s>]/i.test(t)) return true;
    return /\.(ofx|qfx)$/i.test(filename) && /<(OFX|SIGNONMSGSRSV1|BANKMSGSRSV1)/i.test(t);
  },
  async read(bytes) {
    if (bytes.length > OFX_MAX_BYTES)
      return fail('too_large', `The OFX file is larger than ${OFX_MAX_BYTES / 1024 / 1024} MB.`);
    return parseOfx(decodeText(bytes).text);
  },
};
