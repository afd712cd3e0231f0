import { describe, expect, it } from 'vitest';
import type { Line } from '../extraction/extraction.types';
import { linesFromPlainText } from '../extraction/layout/lines';
import {
  amountCell,
  garbledDateCandidates,
  ocrAmountRepair,
  stackedBalances,
  statementFromLines,
  undoDateSlips,
  valueDateLike,
} from './pdf.table';

/** Lines as OCR gives them: cells with pixel x-positions, 40 px apart. */
function lines(rows: Array<Array<[string, number, number]>>): Line[] {
  return rows.map((cells, i) => ({
    page: 1,
    index: i,
    y0: 100 + 40 * i,
    y1: 130 + 40 * i,
    rel: (100 + 40 * i) / 3500,
    cells: cells.map(([text, x0, x1]) => ({ text, x0, x1 })),
    text: cells.map((c) => c[0]).join(' '),
    size: 30,
  }));
}

const head: Array<Array<[string, number, number]>> = [
  [['Harbour Trust Bank', 140, 700]],
  [['IBAN: GB33BUKB20201555555555', 140, 700]],
  [['Statement period: 01/06/2023 to 30/06/2023', 140, 860]],
  [['Currency: GBP', 140, 360]],
];
/** A Date | Description | Amount table with one row under its header. */
const oneRowTable = (date: string, text: string, amount: string): Array<Array<[string, number, number]>> => [
  [
    ['Date', 140, 300],
    ['Description', 400, 800],
    ['Amount', 2000, 2200],
  ],
  [
    [date, 140, 380],
    [text, 400, 800],
    [amount, 2000, 2200],
  ],
];
const typed = (r: ReturnType<typeof statementFromLines>) =>
  r.transactions.map((t) => [t.date, t.amountMinor, t.type, t.balanceAfterMinor]);

describe('OCR repairs of amount cells', () => {
  it.each([
    ['‘270,10', ',', '270,10'],
    ['1.388,88.', ',', '1.388,88'],
    ['1 -1:145,31', ',', '-1.145,31'],
    ['6.652;43', ',', '6.652,43'],
    ['.-1,104.09', '.', '-1,104.09'],
    ['1,468,26', ',', '1468,26'],
    ['1.468.26', '.', '1468.26'],
    ['05.03.', ',', '05.03.'],
    ['1.234,56', ',', '1.234,56'],
  ] as const)('%s → %s', (text, hint, want) => {
    expect(ocrAmountRepair(text, 2, hint)).toBe(want);
  });

  it('reads the repaired amounts and leaves a short date alone', () => {
    expect(amountCell('1,468,26', 2, ',')).toEqual({ minor: 146826, type: null });
    expect(amountCell('1 -1:145,31', 2, ',')).toEqual({ minor: 114531, type: 'debit' });
    expect(amountCell('05.03.', 2, ',')).toBeNull();
  });
});

describe('a value date OCR ran loose from its column', () => {
  it('is read as a date, not as an amount, on a statement with a decimal comma', () => {
    expect(valueDateLike('14.06.', '2024-06-14')).toBe(true);
    expect(valueDateLike('12.06', '2024-06-14')).toBe(true);
    expect(valueDateLike('24.06', '2024-06-14')).toBe(false);
    expect(valueDateLike('14,06', '2024-06-14')).toBe(false);
    expect(valueDateLike('14.06:', '2024-06-14')).toBe(true);
    expect(valueDateLike('06:06.', '2024-06-05')).toBe(true);
    const euro: Array<Array<[string, number, number]>> = [
      [['Banco del Ebro', 140, 700]],
      [['Periodo: 01/06/2024 - 30/06/2024', 140, 860]],
      [['Moneda: EUR', 140, 360]],
      [
        ['Fecha', 140, 260],
        ['Concepto', 381, 569],
        ['Importe', 1500, 1650],
        ['Saldo', 1761, 1910],
      ],
      // The amount ran into the description; the value date stands where the amount should be.
      [
        ['14/06/2024', 139, 314],
        ['Transferencia a De Vries BV 446,20', 381, 1100],
        ['14.06', 1180, 1290],
      ],
      [
        ['20/06/2024', 139, 314],
        ['Recibo luz', 381, 835],
        ['-61,30', 1510, 1650],
        ['1.238,70', 1770, 1908],
      ],
    ];
    const st = statementFromLines(lines(euro));
    expect(st.transactions.map((t) => t.amountMinor)).not.toContain(1406);
  });
});

describe('statement table from OCR lines: balance repairs', () => {
  it('turns the one row whose lost minus explains opening + sum ≠ closing into a debit', () => {
    const st = statementFromLines(
      lines([
        ...head,
        [['Opening balance: 100.00', 1240, 1910]],
        [['Closing balance: 50.00', 1240, 1910]],
        [
          ['Date', 140, 217],
          ['Description', 381, 569],
          ['Amount', 1761, 1910],
        ],
        [
          ['07/06/2023', 139, 314],
          ['Direct debit Insurance', 381, 835],
          ['25.00', 1775, 1908],
        ],
        [
          ['11/06/2023', 139, 314],
          ['Salary', 381, 835],
          ['20.00', 1775, 1908],
        ],
        [
          ['13/06/2023', 139, 314],
          ['Card payment', 381, 835],
          ['-20.00', 1775, 1908],
        ],
      ]),
    );
    // 100 + 25 + 20 − 20 = 125, and no single lost minus (−50 or −40) gives 50: nothing is changed.
    expect(typed(st).map((t) => t[2])).toEqual(['credit', 'credit', 'debit']);
    const fixed = statementFromLines(
      lines([
        ...head,
        [['Opening balance: 100.00', 1240, 1910]],
        [['Closing balance: 75.00', 1240, 1910]],
        [
          ['Date', 140, 217],
          ['Description', 381, 569],
          ['Amount', 1761, 1910],
        ],
        [
          ['07/06/2023', 139, 314],
          ['Direct debit Insurance', 381, 835],
          ['25.00', 1775, 1908],
        ],
        [
          ['11/06/2023', 139, 314],
          ['Salary', 381, 835],
          ['20.00', 1775, 1908],
        ],
        [
          ['13/06/2023', 139, 314],
          ['Card payment', 381, 835],
          ['-20.00', 1775, 1908],
        ],
      ]),
    );
    expect(typed(fixed).map((t) => t[2])).toEqual(['debit', 'credit', 'debit']);
  });

  it('settles a row whose balance was misread from the next row, and restores an unreadable amount', () => {
    const st = statementFromLines(
      lines([
        ...head,
        [['Opening balance: 2,838.24', 1240, 1910]],
        [
          ['Date', 140, 217],
          ['Description', 381, 569],
          ['Amount', 1487, 1616],
          ['Balance', 1819, 1909],
        ],
        [
          ['10/06/2023', 139, 314],
          ['Card payment', 381, 835],
          ['150.00', 1512, 1616],
          ['2,688.24', 1775, 1908],
        ],
        [
          ['12/06/2023', 139, 314],
          ['Refund', 381, 835],
          ['50.00', 1512, 1616],
          ['2,738.24', 1775, 1908],
        ],
        // 2,738.24 − 101.71 = 2,636.53, read as 2,036.53.
        [
          ['15/06/2023', 139, 314],
          ['Standing order', 381, 835],
          ['101.71', 1512, 1616],
          ['2,036.53', 1775, 1908],
        ],
        [
          ['16/06/2023', 139, 314],
          ['Direct debit', 381, 835],
          ['996.74', 1512, 1616],
          ['1,639.79', 1777, 1908],
        ],
        // The amount cell is a smear; the balances around it say 1,000.00 came in.
        [
          ['18/06/2023', 139, 314],
          ['Salary', 381, 835],
          ['~~#', 1512, 1616],
          ['2,639.79', 1777, 1908],
        ],
        [
          ['20/06/2023', 139, 314],
          ['Card payment', 381, 835],
          ['39.79', 1512, 1616],
          ['2,600.00', 1777, 1908],
        ],
      ]),
    );
    expect(typed(st)).toEqual([
      ['2023-06-10', 15000, 'debit', 268824],
      ['2023-06-12', 5000, 'credit', 273824],
      ['2023-06-15', 10171, 'debit', 263653],
      ['2023-06-16', 99674, 'debit', 163979],
      ['2023-06-18', 100000, 'credit', 263979],
      ['2023-06-20', 3979, 'debit', 260000],
    ]);
  });

  it('drops a dated balance-only row the balances cannot explain', () => {
    const st = statementFromLines(
      lines([
        ...head,
        [['Opening balance: 100.00', 1240, 1910]],
        [
          ['Date', 140, 217],
          ['Description', 381, 569],
          ['Amount', 1487, 1616],
          ['Balance', 1819, 1909],
        ],
        [
          ['15/06/2023', 139, 314],
          ['Standing order', 381, 835],
          ['10.00', 1512, 1616],
          ['90.00', 1775, 1908],
        ],
        [
          ['16/06/2023', 139, 314],
          ['Interest note', 381, 835],
          ['90.00', 1777, 1908],
        ],
        [
          ['18/06/2023', 139, 314],
          ['Salary', 381, 835],
          ['5.00', 1512, 1616],
          ['95.00', 1777, 1908],
        ],
      ]),
    );
    expect(typed(st)).toEqual([
      ['2023-06-15', 1000, 'debit', 9000],
      ['2023-06-18', 500, 'credit', 9500],
    ]);
  });

  it('joins a header that a skewed scan split over two lines, and keeps the booking date when the value-date header was lost', () => {
    const st = statementFromLines(
      lines([
        ...head,
        [['Opening balance: 100.00', 1240, 1910]],
        // "Value date" read as "Va1ue": one date column only; "Balance" slipped a line lower.
        [
          ['Date', 140, 217],
          ['Va1ue', 346, 450],
          ['Description', 570, 765],
          ['Amount', 1490, 1621],
        ],
        [['Balance', 1821, 1913]],
        [
          ['06/06/2023', 142, 315],
          ['07/06/2023', 346, 520],
          ['Card payment', 571, 1039],
          ['-10.00', 1452, 1618],
          ['90.00', 1777, 1912],
        ],
        [
          ['08/06/2023', 142, 315],
          ['09/06/2023', 346, 520],
          ['Salary', 571, 1039],
          ['20.00', 1452, 1618],
          ['110.00', 1777, 1912],
        ],
      ]),
    );
    expect(typed(st)).toEqual([
      ['2023-06-06', 1000, 'debit', 9000],
      ['2023-06-08', 2000, 'credit', 11000],
    ]);
  });

  it('reads a date whose slashes OCR made digits, a minus read apart from its amount, and a value date with a speck', () => {
    const st = statementFromLines(
      lines([
        ...head,
        [['Opening balance: 100.00', 1240, 1910]],
        [['Closing balance: 75.00', 1240, 1910]],
        [
          ['Date', 140, 217],
          ['Description', 381, 569],
          ['Value', 1150, 1270],
          ['Amount', 1761, 1910],
        ],
        [
          ['2170672023', 125, 311],
          ['Card payment', 381, 835],
          ['- 21.06.', 1150, 1266],
          ['10.00', 1775, 1908],
        ],
        [
          ['22/06/2023', 139, 314],
          ['Direct debit', 381, 835],
          ['22.06', 1172, 1266],
          ['—', 1600, 1680],
          ['15.00', 1775, 1908],
        ],
      ]),
    );
    expect(typed(st)).toEqual([
      ['2023-06-21', 1000, 'debit', null],
      ['2023-06-22', 1500, 'debit', null],
    ]);
  });

  it('turns the only set of unmarked rows whose lost minus closes opening + sum = closing, and nothing when two sets fit', () => {
    const rows = (closing: string, amounts: string[]) =>
      statementFromLines(
        lines([
          ...head,
          [['Opening balance: 100.00', 1240, 1910]],
          [[`Closing balance: ${closing}`, 1240, 1910]],
          [
            ['Date', 140, 217],
            ['Description', 381, 569],
            ['Amount', 1761, 1910],
          ],
          ...amounts.map(
            (a, i): Array<[string, number, number]> => [
              [`${String(10 + i)}/06/2023`, 139, 314],
              ['Payment', 381, 835],
              [a, 1775, 1908],
            ],
          ),
        ]),
      );
    // Read: 100 + 10 + 20 + 40.01 = 170.01; printed 110.01 = 100 − 10 − 20 + 40.01.
    expect(typed(rows('110.01', ['10.00', '20.00', '40.01'])).map((t) => t[2])).toEqual(['debit', 'debit', 'credit']);
    // 100 + 10 + 20 + 30 = 160 vs 100: flipping 30 or 10 + 20 both fit, so nothing changes.
    expect(typed(rows('100.00', ['10.00', '20.00', '30.00'])).map((t) => t[2])).toEqual(['credit', 'credit', 'credit']);
  });

  it('joins a row a skewed scan cut in two (amounts a little higher or lower) and reads letters OCR put in a date', () => {
    const rows = lines([
      ...head,
      [['Opening balance: 100.00', 1240, 1910]],
      [
        ['Date', 140, 217],
        ['Description', 381, 569],
        ['Amount', 1487, 1616],
        ['Balance', 1819, 1909],
      ],
      [
        ['10/06/2023', 139, 314],
        ['Card payment', 381, 835],
        ['-10.00', 1512, 1616],
        ['90.00', 1775, 1908],
      ],
      [
        ['12/06/2023', 139, 314],
        ['Salary', 381, 835],
      ],
      [
        ['20.00', 1512, 1616],
        ['110.00', 1775, 1908],
      ],
      [
        ['-5.00', 1512, 1616],
        ['105.00', 1775, 1908],
      ],
      [
        ['l4/O6/2023', 139, 314],
        ['Fee', 381, 835],
      ],
    ]);
    // The cut halves sit 14 px apart, closer than a line height.
    const at = rows.findIndex((l) => l.text.startsWith('12/06/2023'));
    rows[at + 1] = { ...rows[at + 1]!, y0: rows[at]!.y0 + 14, y1: rows[at]!.y1 + 14 };
    rows[at + 2] = { ...rows[at + 2]!, y0: rows[at + 1]!.y0 + 40, y1: rows[at + 1]!.y1 + 40 };
    rows[at + 3] = { ...rows[at + 3]!, y0: rows[at + 2]!.y0 + 14, y1: rows[at + 2]!.y1 + 14 };
    expect(typed(statementFromLines(rows))).toEqual([
      ['2023-06-10', 1000, 'debit', 9000],
      ['2023-06-12', 2000, 'credit', 11000],
      ['2023-06-14', 500, 'debit', 10500],
    ]);
  });
});

describe('US statement layouts (real banks)', () => {
  it('reads month-first short dates with the year of the statement date; "3.14" stays an amount', () => {
    const st = statementFromLines(
      lines([
        [['Example Savings', 140, 700]],
        [['January 31, 2022', 140, 500]],
        [['Fee period 01/01/2022 - 01/31/2022', 140, 900]],
        [
          ['Date', 140, 220],
          ['Description', 300, 600],
          ['Additions', 1400, 1600],
          ['Subtractions', 1700, 1950],
          ['balance', 2100, 2300],
        ],
        [
          ['1/10', 140, 210],
          ['Deposit', 300, 500],
          ['193.00', 1450, 1600],
          ['15,271.81', 2120, 2300],
        ],
        [
          ['1/19', 140, 210],
          ['Card purchase', 300, 600],
          ['3.14', 1800, 1950],
          ['15,268.67', 2120, 2300],
        ],
      ]),
    );
    expect(typed(st)).toEqual([
      ['2022-01-10', 19300, 'credit', 1527181],
      ['2022-01-19', 314, 'debit', 1526867],
    ]);
  });

  it('reads dates OCR garbled from the rows around them, and the statement date OCR ran together', () => {
    const row = (date: string, amount: string, balance?: string): Array<[string, number, number]> => [
      [date, 140, 210],
      ['Card purchase', 300, 600],
      [amount, 1800, 1950],
      ...(balance ? ([[balance, 2120, 2300]] as Array<[string, number, number]>) : []),
    ];
    const st = statementFromLines(
      lines([
        [['Example Checking', 140, 700]],
        [['Beginning balance $3,082.80', 140, 700]],
        // "August 11, 2021" as OCR read it: no year for the rows without it.
        [['August1l, 2021', 140, 500]],
        [
          ['Date', 140, 220],
          ['Description', 300, 600],
          ['Additions', 1400, 1600],
          ['Subtractions', 1700, 1950],
          ['balance', 2100, 2300],
        ],
        row('7/14', '11.77'),
        row('7115', '70.66'), // the slash read as 1: 7/15
        row('7716', '14.99'), // the slash read as 7: 7/16
        row('721', '29.18'), // the slash lost: 7/21 (7/1 lies before 7/14)
        row('22', '36.00'), // the month lost: the 22nd between 7/21 and 7/23
        row('7/23', '7.00'),
        row('7/23', '2.00'),
        row('1l9', '4.00'), // 1/19 or 11/9: neither lies between 7/23 and 7/26, so the row is dropped
        row('7/26', '5.00'),
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor])).toEqual([
      ['2021-07-14', 1177],
      ['2021-07-15', 7066],
      ['2021-07-16', 1499],
      ['2021-07-21', 2918],
      ['2021-07-22', 3600],
      ['2021-07-23', 700],
      ['2021-07-23', 200],
      ['2021-07-26', 500],
    ]);
  });

  it('lists the dates a garbled short date can be, and undoes slips in a written date only', () => {
    const parse = (t: string) => {
      const m = /^(\d{1,2})\/(\d{1,2})$/.exec(t);
      return m && Number(m[1]) <= 12 && Number(m[2]) <= 31
        ? `2021-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}`
        : null;
    };
    expect(garbledDateCandidates('7115', parse)).toEqual(['2021-07-15']);
    expect(garbledDateCandidates('721', parse).sort()).toEqual(['2021-07-01', '2021-07-21']);
    expect(garbledDateCandidates('Total', parse)).toEqual([]);
    expect(garbledDateCandidates('123456', parse)).toEqual([]);
    expect(undoDateSlips('August1l, 2021')).toBe('August 11, 2021');
    expect(undoDateSlips('May 3l, 2O22')).toBe('May 31, 2022');
  });

  it('takes the kind of unsigned amounts from their section heading (Electronic Credits, Electronic Debits)', () => {
    const section = (title: string, rows: Array<[string, string, string]>): Array<Array<[string, number, number]>> => [
      [[title, 140, 700]],
      [
        ['Date', 140, 300],
        ['Description', 400, 800],
        ['Amount', 2000, 2200],
      ],
      ...rows.map(
        ([date, text, amount]): Array<[string, number, number]> => [
          [date, 140, 380],
          [text, 400, 1200],
          [amount, 1950, 2200],
        ],
      ),
    ];
    const st = statementFromLines(
      lines([
        [['Statement Ending 06/30/2023', 140, 900]],
        ...section('Electronic Credits', [['06/01/2023', 'Transfer from savings', '$15,000.00']]),
        ...section('Electronic Debits', [
          ['06/02/2023', 'UNITED RENTALS', '$566.56'],
          ['06/07/2023', 'HOME DEPOT', '$110.88'],
        ]),
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([
      ['2023-06-01', 1500000, 'credit'],
      ['2023-06-02', 56656, 'debit'],
      ['2023-06-07', 11088, 'debit'],
    ]);
  });

  it("reads a card statement's sections: payments and credits under their heading, new transactions charges", () => {
    const st = statementFromLines(
      lines([
        [['Account Number XXXX XXXX XXXX 0123', 140, 900]],
        [['October 06, 2024 - November 05, 2024', 140, 900]],
        [
          ['Minimum Payment Due', 140, 600],
          ['$24.62', 1900, 2200],
        ],
        [
          ['Total Credit Line', 140, 600],
          ['$6,580.00', 1900, 2200],
        ],
        [['PAYMENTS AND OTHER CREDITS', 140, 900]],
        [
          ['Post Date', 140, 330],
          ['Trans Date', 360, 560],
          ['Description of Transactions', 600, 1200],
          ['Amount', 2000, 2200],
        ],
        [['Payments', 140, 400]],
        [
          ['11/02', 140, 240],
          ['11/02', 360, 460],
          ['Pymt - Thank You', 600, 1000],
          ['-$2,422.24', 1900, 2200],
        ],
        [['Credits', 140, 400]],
        [
          ['11/01', 140, 240],
          ['10/31', 360, 460],
          ['Minimalist Pho', 600, 1000],
          ['-$29.99', 1950, 2200],
        ],
        [['NEW TRANSACTIONS', 140, 700]],
        [
          ['10/07', 140, 240],
          ['10/06', 360, 460],
          ['Car Wash', 600, 1000],
          ['$35.30', 2000, 2200],
        ],
        [
          ['10/08', 140, 240],
          ['10/07', 360, 460],
          ['Taco Bell', 600, 1000],
          ['$22.76', 2000, 2200],
        ],
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([
      ['2024-11-02', 242224, 'credit'],
      ['2024-11-01', 2999, 'credit'],
      ['2024-10-07', 3530, 'debit'],
      ['2024-10-08', 2276, 'debit'],
    ]);
    expect(st.accountNumber).toBe('XXXXXXXXXXXX0123');
  });

  it('reads a card statement: a summary box is no table, brackets are payments, the card number under its label', () => {
    const st = statementFromLines(
      lines([
        [
          ['STATEMENT DATE', 140, 400],
          ['PAYMENT DUE DATE', 500, 800],
          ['TOTAL CREDIT LIMIT', 900, 1200],
          ['TOTAL MINIMUM DUE', 1300, 1600],
        ],
        [
          ['01-07-2023', 140, 400],
          ['24-07-2023', 500, 800],
          ['S$22,800.00', 900, 1200],
          ['S$50.00', 1300, 1600],
        ],
        [
          ['TRANSACTION DATE', 140, 400],
          ['DESCRIPTION', 500, 800],
          ['AMOUNT (SGD)', 1900, 2200],
        ],
        [
          ["LAST MONTH'S BALANCE", 500, 900],
          ['412.16', 2000, 2200],
        ],
        [
          ['02/07', 140, 250],
          ['PAYMENT BY INTERNET', 500, 900],
          ['(412.16)', 1980, 2200],
        ],
        [
          ['03/07', 140, 250],
          ['BREAKFAST CAFE', 500, 900],
          ['4.20', 2100, 2200],
        ],
        [
          ['TOTAL AMOUNT DUE', 500, 900],
          ['4.20', 2100, 2200],
        ],
        [
          ['CARD NUMBER', 140, 400],
          ['AMOUNT DUE', 500, 800],
        ],
        [
          ['5488-2926-6730-9473', 140, 460],
          ['4.20', 500, 600],
        ],
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([
      ['2023-07-02', 41216, 'credit'],
      ['2023-07-03', 420, 'debit'],
    ]);
    expect(st.startDate).toBeNull();
    expect(st.openingBalanceMinor).toBe(41216);
    expect(st.closingBalanceMinor).toBe(420);
    expect(st.accountNumber).toBe('5488-2926-6730-9473');
  });

  it('reads every account of a combined statement (a new table after a closing balance) and skips the $0.00 of a pair', () => {
    const account = (rows: Array<[string, string, string, string]>): Array<Array<[string, number, number]>> => [
      [
        ['Date', 140, 250],
        ['Description', 300, 700],
        ['Credits', 1000, 1200],
        ['Debits', 1300, 1500],
        ['Balance', 1700, 1900],
      ],
      ...rows.map(
        ([date, credit, debit, balance]): Array<[string, number, number]> => [
          [`${date} ACH`, 140, 600],
          [credit, 1000, 1200],
          [debit, 1300, 1500],
          [balance, 1700, 1900],
        ],
      ),
    ];
    const st = statementFromLines(
      lines([
        [['Statement Date 08/20/2021', 140, 900]],
        ...account([['07/26/2021', '$250.00', '-$0.00', '$6,073.37']]),
        [
          ['08/20/2021 Ending Balance', 140, 600],
          ['$6,073.37', 1700, 1900],
        ],
        ...account([
          ['07/26/2021', '$2,500.00', '-$0.00', '$58,392.61'],
          ['07/27/2021', '$0.00', '-$4,961.00', '$53,431.61'],
        ]),
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([
      ['2021-07-26', 25000, 'credit'],
      ['2021-07-26', 250000, 'credit'],
      ['2021-07-27', 496100, 'debit'],
    ]);
  });

  it('takes the period from the balance lines and the account number from a later page when the top names neither', () => {
    const st = statementFromLines([
      ...lines([
        [['January 31, 2022', 140, 700]],
        [['Statement period activity summary', 140, 900]],
        [
          ['Beginning balance on 1/1', 140, 700],
          ['$100.00', 1000, 1200],
        ],
        [
          ['Ending balance on 1/31', 140, 700],
          ['$90.00', 1000, 1200],
        ],
        [
          ['Date', 140, 300],
          ['Description', 400, 800],
          ['Amount', 2000, 2200],
        ],
        [
          ['1/10', 140, 300],
          ['Fee', 400, 800],
          ['-10.00', 2000, 2200],
        ],
      ]),
      ...lines([[['for Account Number: 0176622896', 140, 900]]]).map((l) => ({ ...l, page: 2, index: 6 })),
    ]);
    expect([st.startDate, st.endDate, st.accountNumber]).toEqual(['2022-01-01', '2022-01-31', '0176622896']);
    const ending = statementFromLines(
      lines([
        [['Statement Ending 06/30/2023', 140, 900]],
        [
          ['06/01/2023', 140, 380],
          ['Beginning Balance', 400, 800],
          ['$159.63', 1000, 1200],
        ],
      ]),
    );
    expect([ending.startDate, ending.endDate]).toEqual(['2023-06-01', '2023-06-30']);
  });

  it('names the bank from its postal address or its footer over a heading, and reads a masked account number', () => {
    const table = oneRowTable('01/10/2022', 'Fee', '-10.00');
    const st = statementFromLines(
      lines([
        [['Harbour Essential Checking', 140, 900]],
        [['Questions?', 1400, 1700]],
        [['Write: Harbour Bank, N.A. (163)', 1400, 2100]],
        [['Account Number: xxxxxx1234', 140, 900]],
        ...table,
      ]),
    );
    expect([st.bankName, st.accountNumber]).toEqual(['Harbour Bank, N.A.', 'xxxxxx1234']);
    const footer = lines([[['Customer Care Information', 1400, 2100]], ...table]);
    footer.push({
      ...footer[0]!,
      y0: 3300,
      y1: 3330,
      rel: 0.96,
      index: 3,
      cells: [{ text: 'Harbour Bank Member FDIC', x0: 140, x1: 700 }],
      text: 'Harbour Bank Member FDIC',
    });
    expect(statementFromLines(footer).bankName).toBe('Harbour Bank');
  });

  it('takes no website, post-office box, city or bare bank word for the bank, and skips a scanned leader after the account label', () => {
    const table = oneRowTable('03 Jul 2018', 'Monthly fee', '-6.00');
    const st = statementFromLines(
      lines([
        [['# BankStatements.net', 900, 1500]],
        [['BOX 6011 STATION A', 140, 700]],
        [['Harbour Trust', 140, 500]],
        [
          ['TORONTO, ON', 140, 500],
          ['Account number: ~~ 01234 567-890-1', 1400, 2200],
        ],
        ...table,
      ]),
    );
    expect([st.bankName, st.accountNumber]).toEqual(['Harbour Trust', '01234567-890-1']);
    // A logo's monogram before the name is no part of it; a lone capital that is no initial of the name stays.
    const logo = (name: string) => statementFromLines(lines([[[name, 140, 900]], ...table])).bankName;
    expect(logo('H Bank Harbourside')).toBe('Bank Harbourside');
    expect(logo('Q Bank Harbourside')).toBe('Q Bank Harbourside');
  });

  it("reads a combined statement's second account from its own beginning balance, in its table or in the summary above it", () => {
    const header: Array<[string, number, number]> = [
      ['Date', 140, 300],
      ['Description', 400, 800],
      ['Credits', 1300, 1500],
      ['Debits', 1650, 1850],
      ['Balance', 2000, 2200],
    ];
    const first: Array<Array<[string, number, number]>> = [
      header,
      [
        ['07/21/2021', 140, 380],
        ['Beginning Balance', 400, 800],
        ['$1,000.00', 2000, 2200],
      ],
      [
        ['07/26/2021', 140, 380],
        ['ACH Deposit', 400, 800],
        ['$250.00', 1300, 1500],
        ['$1,250.00', 2000, 2200],
      ],
      [
        ['08/20/2021', 140, 380],
        ['Ending Balance', 400, 800],
        ['$1,250.00', 2000, 2200],
      ],
    ];
    const inTable = statementFromLines(
      lines([
        ...first,
        header,
        [
          ['07/21/2021', 140, 380],
          ['Beginning Balance', 400, 800],
          ['$55,892.61', 2000, 2200],
        ],
        [
          ['07/26/2021', 140, 380],
          ['ACH Deposit', 400, 800],
          ['$2,500.00', 1300, 1500],
          ['$58,392.61', 2000, 2200],
        ],
        [
          ['07/27/2021', 140, 380],
          ['Withdrawal', 400, 800],
          ['-$4,961.00', 1650, 1850],
          ['$53,431.61', 2000, 2200],
        ],
      ]),
    );
    expect(typed(inTable).map((t) => [t[1], t[2]])).toEqual([
      [25000, 'credit'],
      [250000, 'credit'],
      [496100, 'debit'],
    ]);
    const inSummary = statementFromLines(
      lines([
        ...first,
        [
          ['Beginning balance on 7/20', 140, 900],
          ['$55,892.61', 1300, 1600],
        ],
        [
          ['Ending balance on 8/16', 140, 900],
          ['$53,431.61', 1300, 1600],
        ],
        header,
        [
          ['07/26/2021', 140, 380],
          ['ACH Deposit', 400, 800],
          ['$2,500.00', 1300, 1500],
          ['$58,392.61', 2000, 2200],
        ],
        [
          ['07/27/2021', 140, 380],
          ['Withdrawal', 400, 800],
          ['-$4,961.00', 1650, 1850],
          ['$53,431.61', 2000, 2200],
        ],
      ]),
    );
    expect(typed(inSummary).map((t) => t[1])).toEqual([25000, 250000, 496100]);
  });

  it('reads side-by-side check tables (date in the second column) and no transactions from a daily balances table', () => {
    const st = statementFromLines(
      lines([
        [['Statement Ending 06/30/2023', 140, 900]],
        [
          ['Date', 140, 300],
          ['Description', 400, 800],
          ['Amount', 2000, 2200],
        ],
        [
          ['06/02/2023', 140, 380],
          ['Transfer in', 400, 800],
          ['$50.00', 2000, 2200],
        ],
        [['Checks Cleared', 140, 600]],
        [
          ['Check Nbr', 250, 450],
          ['Date', 600, 750],
          ['Amount', 950, 1150],
          ['Check Nbr', 1400, 1600],
          ['Date', 1750, 1900],
          ['Amount', 2100, 2300],
        ],
        [
          ['1001', 350, 450],
          ['06/06/2023', 580, 800],
          ['$2,884.38', 950, 1150],
          ['1006', 1500, 1600],
          ['06/20/2023', 1730, 1950],
          ['$2,104.20', 2100, 2300],
        ],
        [
          ['1002', 350, 450],
          ['06/07/2023', 580, 800],
          ['$3,057.00', 950, 1150],
        ],
        [['Daily Balances', 140, 600]],
        [
          ['Date', 140, 300],
          ['Amount', 600, 800],
          ['Date', 900, 1100],
          ['Amount', 1400, 1600],
        ],
        [
          ['06/01/2023', 140, 380],
          ['$15,159.63', 600, 800],
          ['06/09/2023', 900, 1140],
          ['$2,332.26', 1400, 1600],
        ],
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type, t.description])).toEqual([
      ['2023-06-02', 5000, 'credit', 'Transfer in'],
      ['2023-06-06', 288438, 'debit', '1001'],
      ['2023-06-20', 210420, 'debit', '1006'],
      ['2023-06-07', 305700, 'debit', '1002'],
    ]);
  });
});

describe('statement layouts from a second sample of real banks', () => {
  it('reads amounts monospaced print splits at the decimal point, and restores misread ones from confirmed balances', () => {
    const st = statementFromLines(
      lines([
        ...head,
        [
          ['Date', 140, 260],
          ['Description', 500, 900],
          ['Debit', 1500, 1650],
          ['Credit', 1800, 1950],
          ['Balance', 2100, 2300],
        ],
        [
          ['Opening balance', 500, 900],
          ['7,017. 69', 2100, 2300],
        ],
        [
          ['05/06/2023', 140, 400],
          ['Stadtwerke Nord', 500, 900],
          ['539P 10', 1500, 1650],
          ['6,478. 59', 2100, 2300],
        ],
        [
          ['07/06/2023', 140, 400],
          ['Metro Cash', 500, 900],
          ['13% 95', 1500, 1650],
          ['6,464. 64', 2100, 2300],
        ],
        // OCR lost digits of these two amounts; the balances around them are confirmed by the rows after.
        [
          ['08/06/2023', 140, 400],
          ['ACME GmbH', 500, 900],
          ['567', 1560, 1650],
          ['6,214. 97', 2100, 2300],
        ],
        [
          ['09/06/2023', 140, 400],
          ['Landlord Ltd', 500, 900],
          ['.44', 1600, 1650],
          ['5,864. 53', 2100, 2300],
        ],
        [
          ['10/06/2023', 140, 400],
          ['Blue Sky Telecom', 500, 900],
          ['959.79', 1800, 1950],
          ['6,824. 32', 2100, 2300],
        ],
      ]),
    );
    expect(typed(st)).toEqual([
      ['2023-06-05', 53910, 'debit', 647859],
      ['2023-06-07', 1395, 'debit', 646464],
      ['2023-06-08', 24967, 'debit', 621497],
      ['2023-06-09', 35044, 'debit', 586453],
      ['2023-06-10', 95979, 'credit', 682432],
    ]);
    expect(st.openingBalanceMinor).toBe(701769);
  });

  it('reads a German header whose text column is a sentence and whose amount columns name their currency', () => {
    const st = statementFromLines(
      lines([
        [['Deutsche Kreditbank, Taubenstr. 7-9, 10117 Berlin', 140, 1200]],
        [['Kontoauszug Nummer 001 / 2020 vom 31.12.2019 bis 03.01.2020', 140, 1500]],
        [
          ['Bu.Tag', 140, 260],
          ['Wert', 400, 500],
          ['Wir haben für Sie gebucht', 700, 1300],
          ['Belastung in EUR', 1500, 1800],
          ['Gutschrift in EUR', 1900, 2200],
        ],
        [
          ['31.12.', 140, 260],
          ['02.01.', 400, 500],
          ['Dauerauftrag', 700, 1000],
          ['200,00', 1650, 1800],
        ],
        [
          ['02.01.', 140, 260],
          ['02.01.', 400, 500],
          ['Zahlungseingang', 700, 1000],
          ['1.202,43', 2050, 2200],
        ],
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([
      ['2019-12-31', 20000, 'debit'],
      ['2020-01-02', 120243, 'credit'],
    ]);
    expect(st.bankName).toBe('Deutsche Kreditbank');
  });

  it('books on the booking date where a purchase date stands beside it, in one header cell or two', () => {
    const st = statementFromLines(
      lines([
        [['Cembra Money Bank AG', 140, 700]],
        [['Rechnungsdatum 23.06.2025', 140, 900]],
        [
          ['Einkaufs-Datum Verbucht am', 140, 700],
          ['Beschreibung', 800, 1200],
          ['Gutschrift CHF', 1500, 1800],
          ['Belastung CHF', 1900, 2200],
        ],
        [
          ['23.05.2025', 140, 400],
          ['24.05.2025', 450, 700],
          ['Migros MM Stadelhofen', 800, 1300],
          ["1'019.50", 2000, 2200],
        ],
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type, t.valueDate])).toEqual([
      ['2025-05-24', 101950, 'debit', '2025-05-23'],
    ]);
  });

  it('splits an amount from the text printed right after it, and reads no rows from an account balance summary', () => {
    // Monospaced print: 18 px a character at 30 px type.
    const st = statementFromLines(
      lines([
        [['USAA FEDERAL SAVINGS BANK', 140, 900]],
        [['STATEMENT DATE 12/31/13', 1500, 2200]],
        [['DEPOSITS AND OTHER CREDITS', 140, 800]],
        [['DATE..........AMOUNT.TRANSACTION DESCRIPTION', 140, 932]],
        [
          ['12/31', 140, 230],
          ['27.00 USAA FUNDS TRANSFER CR', 410, 914],
        ],
        [['OTHER DEBITS', 140, 500]],
        [['DATE..........AMOUNT.TRANSACTION DESCRIPTION', 140, 932]],
        [
          ['12/13', 140, 230],
          ['80.32 USAA FUNDS TRANSFER DB', 410, 914],
        ],
        [['ACCOUNT BALANCE SUMMARY', 140, 800]],
        [['DATE.........BALANCE', 140, 800]],
        [
          ['12/09', 140, 290],
          ['217.00', 500, 700],
        ],
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([
      ['2013-12-31', 2700, 'credit'],
      ['2013-12-13', 8032, 'debit'],
    ]);
  });
});

describe('statement layouts from an independent generator of bank layouts', () => {
  it('reads a day printed once for its bookings, and dates with a month word and no year', () => {
    const st = statementFromLines(
      lines([
        [['Barclays Bank UK PLC', 140, 700]],
        [['Statement 1 Feb 2024 - 29 Feb 2024', 140, 900]],
        [
          ['Date', 140, 300],
          ['Description', 400, 900],
          ['Money out', 1300, 1550],
          ['Money in', 1650, 1900],
          ['Balance', 2000, 2250],
        ],
        [
          ['1 Feb', 140, 280],
          ['Start balance', 400, 800],
          ['1,000.00', 2050, 2250],
        ],
        [
          ['13 Feb', 140, 290],
          ['Pret A Manger', 400, 800],
          ['4.50', 1450, 1550],
          ['995.50', 2070, 2250],
        ],
        [
          ['Netflix.com', 400, 800],
          ['10.99', 1430, 1550],
          ['984.51', 2070, 2250],
        ],
        [
          ['20 Feb', 140, 290],
          ['Salary ACME LTD', 400, 850],
          ['2,000.00', 1750, 1900],
          ['2,984.51', 2030, 2250],
        ],
      ]),
    );
    expect(typed(st)).toEqual([
      ['2024-02-13', 450, 'debit', 99550],
      ['2024-02-13', 1099, 'debit', 98451],
      ['2024-02-20', 200000, 'credit', 298451],
    ]);
  });

  it("reads Danish and Dutch headers, and a booking's direction from its own cell ('Af' / 'Bij')", () => {
    const danish = statementFromLines(
      lines([
        [['Danske Bank A/S', 140, 700]],
        [['Kontoudtog 01.03.2024 - 31.03.2024', 140, 900]],
        [
          ['Dato', 140, 300],
          ['Tekst', 400, 900],
          ['Beløb', 1500, 1800],
          ['Saldo', 1900, 2200],
        ],
        [
          ['04.03.2024', 140, 400],
          ['Netto Nørrebro', 400, 900],
          ['-245,50', 1600, 1800],
          ['12.754,50', 1950, 2200],
        ],
      ]),
    );
    expect(typed(danish)).toEqual([['2024-03-04', 24550, 'debit', 1275450]]);
    const dutch = statementFromLines(
      lines([
        [['ING Bank N.V.', 140, 700]],
        [['Periode 01-04-2024 t/m 30-04-2024', 140, 900]],
        [
          ['Datum', 140, 300],
          ['Omschrijving', 400, 900],
          ['Af Bij', 1400, 1550],
          ['Bedrag (EUR)', 1600, 1900],
        ],
        [
          ['02-04-2024', 140, 400],
          ['Albert Heijn 1403', 400, 900],
          ['Af', 1450, 1520],
          ['32,10', 1750, 1900],
        ],
        [
          ['25-04-2024', 140, 400],
          ['Salaris Acme BV', 400, 900],
          ['Bij', 1450, 1520],
          ['2.450,00', 1700, 1900],
        ],
      ]),
    );
    expect(typed(dutch)).toEqual([
      ['2024-04-02', 3210, 'debit', null],
      ['2024-04-25', 245000, 'credit', null],
    ]);
  });

  it('reads a header printed over two lines, and a dated row that names only the balance (SALDO) is no booking', () => {
    const st = statementFromLines(
      lines([
        [['Banca Esempio S.p.A.', 140, 700]],
        [['Estratto conto al 31/03/2024', 140, 900]],
        [
          ['DATA', 140, 300],
          ['DATA', 400, 560],
        ],
        [
          ['DESCRIZIONE', 700, 1100],
          ['ADDEBITI', 1400, 1650],
          ['ACCREDITI', 1800, 2050],
        ],
        [
          ['CONTABILE', 140, 330],
          ['VALUTA', 400, 560],
        ],
        [
          ['05/03/2024', 140, 330],
          ['04/03/2024', 400, 590],
          ['PAGAMENTO POS ESSELUNGA', 700, 1200],
          ['56,20', 1550, 1650],
        ],
        [
          ['31/03/2024', 140, 330],
          ['SALDO', 700, 850],
          ['1.943,80', 1870, 2050],
        ],
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type, t.valueDate])).toEqual([
      ['2024-03-05', 5620, 'debit', '2024-03-04'],
    ]);
  });
});

describe('statement layouts of a third fresh sample', () => {
  it('dates the bookings under a dated line without an amount by that line, and reads a balance under its label', () => {
    const st = statementFromLines(
      lines([
        [['HSBC UK Bank plc', 140, 700]],
        [['11 December 2020 to 10 January 2021', 140, 900]],
        [
          ['Account', 140, 400],
          ['Opening Balance', 1500, 1900],
        ],
        [
          ['11111111', 140, 400],
          ['GBP', 1500, 1600],
          ['293.63', 1750, 1900],
        ],
        [
          ['Date', 140, 300],
          ['Payment type and details', 400, 900],
          ['Paid out', 1300, 1500],
          ['Paid in', 1600, 1800],
          ['Balance', 1950, 2150],
        ],
        [
          ['31 Dec 20', 140, 330],
          ['CR A Testname', 400, 800],
        ],
        [
          ['LKOB KYS REKO', 400, 800],
          ['650.00', 1650, 1800],
        ],
        [
          ['WYMNXYNM MXKYOHNX', 400, 850],
          ['550.00', 1350, 1500],
          ['393.63', 2000, 2150],
        ],
      ]),
    );
    expect(typed(st)).toEqual([
      ['2020-12-31', 65000, 'credit', null],
      ['2020-12-31', 55000, 'debit', 39363],
    ]);
    expect(st.openingBalanceMinor).toBe(29363);
  });

  it('names the bank by the website in its letterhead where no line names it', () => {
    const st = statementFromLines(
      lines([
        [['Contact tel 03457 404 404', 1500, 2200]],
        [['www.hsbc.co.uk', 1650, 2100]],
        [['Your Statement', 1500, 2000]],
        [
          ['Mr Z Testname', 140, 600],
          ['Account Summary', 1300, 1900],
        ],
        [['11 December 2020 to 10 January 2021', 140, 900]],
        [
          ['Date', 140, 300],
          ['Details', 400, 900],
          ['Paid out', 1300, 1500],
          ['Paid in', 1600, 1800],
          ['Balance', 1950, 2150],
        ],
        [
          ['16 Dec 20', 140, 330],
          ['DD FYWLNH FI', 400, 800],
          ['12.00', 1400, 1500],
          ['291.36', 2000, 2150],
        ],
      ]),
    );
    expect(st.bankName).toBe('HSBC');
  });
});

describe('layouts of an independent statement generator (gen-stmt4 dev layouts)', () => {
  it('a Polish statement: a header over three lines with a balance column, running numbers before the dates', () => {
    const r = statementFromLines(
      lines([
        [['Bank Nadwiślański S.A. Wyciąg z rachunku nr 10/2024', 140, 1400]],
        [['Numer rachunku: PL27 1140 2004 1829 7140 4108 7923', 140, 1300]],
        [['Okres: 2024-10-01 - 2024-10-31', 140, 900]],
        [
          ['Saldo początkowe', 140, 560],
          ['52 422,57 PLN', 600, 900],
        ],
        [
          ['Data', 240, 360],
          ['Data', 460, 560],
          ['Saldo po', 2150, 2300],
        ],
        [
          ['Lp.', 160, 210],
          ['Opis operacji', 680, 900],
          ['Kwota', 1950, 2050],
        ],
        [
          ['księgowania', 240, 440],
          ['waluty', 460, 560],
          ['operacji', 2160, 2300],
        ],
        [
          ['1', 160, 180],
          ['2024-10-01', 240, 440],
          ['2024-10-01', 460, 660],
          ['Zlecenie stałe Wspólnota Mieszkaniowa', 680, 1500],
          ['-3 093,00', 1900, 2060],
          ['49 329,57', 2150, 2300],
        ],
        [
          ['100 2024-10-02', 160, 440],
          ['2024-10-02', 460, 660],
          ['Przelew przychodzący Jan Kamiński', 680, 1500],
          ['+288,44', 1940, 2060],
          ['49 618,01', 2150, 2300],
        ],
      ]),
    );
    expect(r.bankName).toBe('Bank Nadwiślański S.A.');
    expect(r.currency).toBe('PLN');
    expect(typed(r)).toEqual([
      ['2024-10-01', 309300, 'debit', 4932957],
      ['2024-10-02', 28844, 'credit', 4961801],
    ]);
    expect(r.transactions[0]!.description).toBe('Zlecenie stałe Wspólnota Mieszkaniowa');
  });

  it("a booking whose text says 'transports' is no carried-over balance; the currency is the balances', not a trip's", () => {
    const r = statementFromLines(
      lines([
        [['Crédit Régional du Val de Loire', 140, 900]],
        [['IBAN : FR76 1480 6980 0307 1763 0707 162', 140, 1100]],
        [['du 01.08.2024 au 31.08.2024', 140, 900]],
        [
          ['Date', 140, 260],
          ['Libellé des opérations', 400, 900],
          ['Débit', 1500, 1600],
          ['Crédit', 1750, 1850],
        ],
        [
          ['Ancien solde créditeur au 31.07.2024', 400, 1200],
          ['2195,31', 1750, 1850],
        ],
        [
          ['01.08.2024', 140, 300],
          ['PAIEMENT CARTE USD 45,00 @ 1,0832', 400, 1200],
          ['41,54', 1500, 1600],
        ],
        [
          ['05.08.2024', 140, 300],
          ['VIR SEPA RECU DE SAS TRANSPORTS DURAND', 400, 1200],
          ['5208,43', 1750, 1850],
        ],
      ]),
    );
    expect(r.currency).toBe('EUR');
    expect(typed(r).map((t) => t.slice(0, 3))).toEqual([
      ['2024-08-01', 4154, 'debit'],
      ['2024-08-05', 520843, 'credit'],
    ]);
  });

  it('a dated line without an amount, then a card number and the amount a line lower: one booking with both texts', () => {
    const r = statementFromLines(
      lines([
        [['Statement period 1 February 2014 to 30 April 2014', 1000, 1900]],
        [
          ['Date', 160, 260],
          ['Transaction', 300, 600],
          ['Debit', 1050, 1150],
          ['Credit', 1200, 1300],
          ['Balance', 1450, 1600],
        ],
        [
          ['01 Feb 2014 OPENING BALANCE', 160, 800],
          ['$5,198.64 CR', 1400, 1600],
        ],
        [['01 Feb ST GEORGE CARDS CommBank app BPAY 9', 160, 900]],
        [
          ['4601843900281088', 300, 600],
          ['200.00 $', 1050, 1150],
          ['$4,998.64 CR', 1400, 1600],
        ],
        [
          ['04 Feb Transfer to xx1119 NetBank', 160, 800],
          ['1,130.00 (', 1030, 1150],
          ['$3,868.64 CR', 1400, 1600],
        ],
      ]),
    );
    expect(r.startDate).toBe('2014-02-01');
    expect(r.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([
      ['2014-02-01', 20000, 'debit'],
      ['2014-02-04', 113000, 'debit'],
    ]);
    expect(r.transactions[0]!.description).toContain('ST GEORGE CARDS');
  });

  it("no booking in the 'Daily Balances' grid printed after the 'Ending Balance' row", () => {
    const r = statementFromLines(
      lines([
        [['Statement Ending 09/21/2018', 1000, 1500]],
        [
          ['Post Date', 100, 250],
          ['Description', 300, 600],
          ['Debits', 1000, 1100],
          ['Credits', 1200, 1300],
          ['Balance', 1450, 1600],
        ],
        [
          ['09/01/2018', 100, 250],
          ['Beginning Balance', 300, 600],
          ['$18,805.47', 1450, 1600],
        ],
        [
          ['09/04/2018', 100, 250],
          ['Nationstar dba Mr Cooper', 300, 700],
          ['$1,989.60', 1000, 1100],
          ['$16,815.87', 1450, 1600],
        ],
        [
          ['09/21/2018', 100, 250],
          ['Ending Balance', 300, 600],
          ['$16,815.87', 1450, 1600],
        ],
        [['Daily Balances', 100, 500]],
        [
          ['Date', 100, 200],
          ['Amount Date', 450, 750],
          ['Amount', 950, 1100],
          ['Date', 1200, 1300],
          ['Amount', 1450, 1600],
        ],
        [
          ['09/04/2018', 100, 250],
          ['$16,815.87', 450, 600],
          ['09/10/2018', 650, 800],
          ['$3,607.80', 950, 1100],
          ['09/18/2018', 1200, 1350],
          ['$6,101.54', 1450, 1600],
        ],
      ]),
    );
    expect(r.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([['2018-09-04', 198960, 'debit']]);
  });

  it("a period whose first date has no year ('February 1 – April 30, 2022'), rows dated '02-01'", () => {
    const r = statementFromLines(
      lines([
        [['Statement Period February 1 – April 30, 2022', 1000, 1900]],
        [
          ['Date', 160, 260],
          ['Credits', 400, 500],
          ['Debits', 600, 700],
          ['Balance Description', 800, 1300],
        ],
        [
          ['02-01', 160, 260],
          ['203.00', 420, 500],
          ['205.01 DEPOSIT', 800, 1100],
        ],
        [
          ['02-03', 160, 260],
          ['10.00', 620, 700],
          ['195.01 POS DB BP#8470320GIANT #476 DAYTON OH', 800, 1500],
        ],
      ]),
    );
    expect([r.startDate, r.endDate]).toEqual(['2022-02-01', '2022-04-30']);
    expect(r.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([
      ['2022-02-01', 20300, 'credit'],
      ['2022-02-03', 1000, 'debit'],
    ]);
  });

  it("'Transport' alone carries a balance over; 'Transport - AnyCompany Ridesharing' is a booking", () => {
    const r = statementFromLines(
      lines([
        [['Banque Populaire du Nord', 140, 900]],
        [['du 01.08.2024 au 31.08.2024', 140, 900]],
        [
          ['Date', 140, 260],
          ['Libellé', 400, 900],
          ['Débit', 1500, 1600],
          ['Crédit', 1750, 1850],
          ['Solde', 2000, 2100],
        ],
        [
          ['Transport', 400, 700],
          ['1000,00', 2000, 2100],
        ],
        [
          ['02.08.2024', 140, 300],
          ['Transport - AnyCompany Ridesharing - 2039726014', 400, 1200],
          ['24,90', 1500, 1600],
          ['975,10', 2000, 2100],
        ],
        [
          ['03.08.2024', 140, 300],
          ['Report de solde', 400, 900],
          ['975,10', 2000, 2100],
        ],
        [
          ['04.08.2024', 140, 300],
          ['VIREMENT RECU', 400, 1200],
          ['100,00', 1750, 1850],
          ['1075,10', 2000, 2100],
        ],
      ]),
    );
    expect(typed(r).map((t) => t.slice(0, 3))).toEqual([
      ['2024-08-02', 2490, 'debit'],
      ['2024-08-04', 10000, 'credit'],
    ]);
  });

  it('the bank named in the legal footer, not the holder; balances under labels with their dates; no "Daily Ending Balance" row a booking', () => {
    const r = statementFromLines([
      ...lines([
        [['Rekeningafschrift', 1200, 1600]],
        [['Periode 01-02-2025 t/m 28-02-2025', 1200, 1800]],
        [['IBAN NL79 PLDB 7068 7179 29', 1200, 1800]],
        [['DHR M. JANSEN', 240, 600]],
        [
          ['Rekeninghouder', 200, 500],
          ['Beginsaldo 01-02-2025', 610, 900],
          ['Eindsaldo 28-02-2025', 1700, 2000],
        ],
        [
          ['DHR M. JANSEN', 200, 500],
          ['4.643,57', 1000, 1100],
          ['4.013,00', 2050, 2150],
        ],
        [
          ['Datum', 180, 300],
          ['Omschrijving', 400, 700],
          ['Af', 1880, 1920],
          ['Bij', 2160, 2200],
        ],
        [
          ['03-02-2025', 180, 340],
          ['Vesteda Woningen', 400, 800],
          ['630,57', 1820, 1920],
        ],
        [['DAILY ENDING BALANCE', 180, 600]],
        [
          ['Datum', 180, 300],
          ['Bedrag', 1820, 1920],
        ],
        [
          ['03-02-2025', 180, 340],
          ['4.013,00', 1820, 1920],
        ],
      ]),
      {
        page: 1,
        index: 11,
        y0: 3300,
        y1: 3330,
        rel: 0.95,
        cells: [{ text: 'Polderbank N.V., statutair gevestigd te Amsterdam, KvK 33031431', x0: 180, x1: 2200 }],
        text: 'Polderbank N.V., statutair gevestigd te Amsterdam, KvK 33031431',
        size: 30,
      },
    ]);
    expect(r.bankName).toBe('Polderbank N.V.');
    expect(r.currency).toBe('EUR');
    expect(r.openingBalanceMinor).toBe(464357);
    expect(r.closingBalanceMinor).toBe(401300);
    expect(typed(r).map((t) => t.slice(0, 3))).toEqual([['2025-02-03', 63057, 'debit']]);
  });
});

describe('statement layouts of a fourth fresh sample', () => {
  /** Lines of several pages: [page, cells]. */
  function paged(rows: Array<[number, Array<[string, number, number]>]>): Line[] {
    return rows.map(([page, cells], i) => ({
      ...lines([cells])[0]!,
      page,
      index: i,
      y0: 100 + 40 * i,
      y1: 130 + 40 * i,
    }));
  }
  it('reads debits and credits from two columns whose header is not in the text, page by page, and balances before their label', () => {
    const st = statementFromLines(
      paged([
        [1, [['IT22 H076 0101 6000 0103 0700 957', 140, 900]]],
        [
          1,
          [
            ['31/07/22', 140, 330],
            ['468,80 SALDO INIZIALE', 1500, 2100],
          ],
        ],
        [
          1,
          [
            ['01/08/22', 140, 330],
            ['01/08/22', 450, 640],
            ['1.500,00', 1500, 1700],
            ['BONIFICO DA ROSSI', 1800, 2400],
          ],
        ],
        [
          1,
          [
            ['01/08/22', 140, 330],
            ['01/08/22', 450, 640],
            ['1.500,00', 1050, 1250],
            ['RICARICA POSTEPAY', 1800, 2400],
          ],
        ],
        [
          1,
          [
            ['02/08/22', 140, 330],
            ['31/07/22', 450, 640],
            ['2,00', 1170, 1250],
            ['CANONE CONTO', 1800, 2400],
          ],
        ],
        // The back of the sheet: the same columns further left, and a page that has debits only.
        [
          2,
          [
            ['09/08/22', 140, 330],
            ['09/08/22', 450, 640],
            ['400,00', 1150, 1310],
            ['BONIFICO DA ROSSI', 1400, 2000],
          ],
        ],
        [
          2,
          [
            ['10/08/22', 140, 330],
            ['07/08/22', 450, 640],
            ['18,10', 780, 900],
            ['PAGAMENTO POS', 1400, 2000],
          ],
        ],
        [
          3,
          [
            ['11/08/22', 140, 330],
            ['10/08/22', 450, 640],
            ['6,45', 1170, 1250],
            ['PAGAMENTO POS', 1800, 2400],
          ],
        ],
        [
          3,
          [
            ['31/08/22', 140, 330],
            ['TOTALE USCITE 1.526,55', 1050, 2100],
          ],
        ],
        [
          3,
          [
            ['31/08/22', 140, 330],
            ['840,25 SALDO FINALE', 1500, 2100],
          ],
        ],
      ]),
    );
    expect(typed(st)).toEqual([
      ['2022-08-01', 150000, 'credit', null],
      ['2022-08-01', 150000, 'debit', null],
      ['2022-08-02', 200, 'debit', null],
      ['2022-08-09', 40000, 'credit', null],
      ['2022-08-10', 1810, 'debit', null],
      ['2022-08-11', 645, 'debit', null],
    ]);
    expect([st.openingBalanceMinor, st.closingBalanceMinor]).toEqual([46880, 84025]);
    // The rows' booking and value dates are no period: the statement ends on its closing balance's date.
    expect(st.endDate).toBe('2022-08-31');
  });

  it("takes neither the holder's mailing block nor a currency word for the bank's name", () => {
    const st = statementFromLines(
      lines([
        [
          ['EURO', 1500, 1650],
          ['1030700957', 1700, 2000],
        ],
        [['ROSSI MARIO BIANCHI ANNA', 1300, 2000]],
        [['ROSSI MARIO BIANCHI ANNA', 1300, 2000]],
        [['VIA GARIGLIANO 2', 1300, 2000]],
        [['20900 MONZA', 1300, 2000]],
        [
          ['31/07/22', 140, 330],
          ['468,80 SALDO INIZIALE', 1500, 2100],
        ],
        [
          ['01/08/22', 140, 330],
          ['1.500,00', 1050, 1250],
          ['RICARICA POSTEPAY', 1800, 2400],
        ],
      ]).map((l, k) => (k >= 5 ? { ...l, rel: 0.4 + 0.02 * k } : l)),
    );
    expect(st.bankName).toBe(null);
  });

  it("takes no field label for the bank's name, whatever words it holds ('Credit Card Number')", () => {
    const st = statementFromLines(
      lines([
        [
          ['Credit Card Number', 140, 600],
          ['XXXX XXXX XXXX 1234', 700, 1200],
        ],
        [
          ['Date', 140, 300],
          ['Transaction Details', 400, 900],
          ['Amount', 1300, 1500],
        ],
        [
          ['01/09/23', 140, 300],
          ['AMAZON', 400, 900],
          ['242.48', 1300, 1500],
        ],
      ]),
    );
    expect(st.bankName).toBe(null);
  });
});

describe('a summary box whose labels wrap over two lines', () => {
  it("reads 'BALANCE / LAST STATEMENT' and 'BALANCE THIS / STATEMENT' over their row of figures", () => {
    const box = lines([
      [
        ['BALANCE', 100, 260],
        ['TOTAL AMOUNT', 500, 760],
        ['BALANCE THIS', 1500, 1760],
      ],
      [
        ['LAST STATEMENT', 80, 300],
        ['OF DEBITS PAID', 500, 760],
        ['STATEMENT', 1520, 1740],
      ],
      [
        ['217.00', 160, 260],
        ['168.21', 640, 760],
        ['75.79', 1640, 1740],
      ],
    ]);
    expect(stackedBalances(box, 2, '.')).toEqual({ opening: 21700, closing: 7579 });
    // One line of labels is no wrapped box: nothing read here (the labelled-line rules handle it).
    expect(stackedBalances([box[0]!, box[2]!, box[2]!], 2, '.')).toEqual({ opening: null, closing: null });
  });
});

describe('a table of whole amounts under one "Withdrawals / Deposits" column', () => {
  const table = (amounts: string[]) =>
    lines([
      [['Example Credit Union', 140, 700]],
      [['Currency: USD', 140, 400]],
      [
        ['Date', 140, 220],
        ['Description', 400, 620],
        ['Withdrawals / Deposits', 1300, 1700],
      ],
      ...amounts.map(
        (a, i): Array<[string, number, number]> => [
          [`2/${i + 6}/2020`, 130, 260],
          [`Food Purchase - AnyCompany Restaurant - 11940892${i}`, 400, 1100],
          [a, 1600, 1700],
        ],
      ),
    ]);

  it('reads "-171" as a debit of 171.00 and "25" as a credit: one signed column, not a debit and a credit one', () => {
    expect(typed(statementFromLines(table(['-171', '-44', '25', '-1,224'])))).toEqual([
      ['2020-02-06', 17100, 'debit', null],
      ['2020-02-07', 4400, 'debit', null],
      ['2020-02-08', 2500, 'credit', null],
      ['2020-02-09', 122400, 'debit', null],
    ]);
  });

  it('takes no bare integer for an amount on a page that prints its amounts with decimals', () => {
    expect(typed(statementFromLines(table(['-171.00', '-44.50', '567'])))).toEqual([
      ['2020-02-06', 17100, 'debit', null],
      ['2020-02-07', 4450, 'debit', null],
    ]);
  });
});

describe('Indian card statements (a fifth fresh sample, dev)', () => {
  it("reads purchases as debits under 'Amount (in Rs.)', 'Cr' payments as credits, and the box whose labels wrap around 'Total Dues'", () => {
    const st = statementFromLines(
      lines([
        [['HDFC Bank Credit Cards GSTIN : 33AAACH2702H2Z6', 900, 1700]],
        [
          ['Name', 80, 160],
          [': ASHA VERMA', 200, 600],
          ['Statement for HDFC Bank Credit Card', 1200, 1900],
        ],
        [
          ['Payment Due Date', 1000, 1300],
          ['Total Dues', 1500, 1700],
          ['Minimum Amount Due', 1900, 2250],
        ],
        [
          ['to The Manager, HDFC Bank Cards Division, Door No 94 SP, Estate', 80, 1000],
          ['12/07/2025', 1050, 1250],
        ],
        [
          ['Credit Limit', 1000, 1200],
          ['Available Credit Limit', 1400, 1800],
        ],
        [
          ['4,29,000', 1050, 1200],
          ['4,26,020', 1500, 1650],
        ],
        [
          ['Opening', 1000, 1150],
          ['Payment/', 1250, 1400],
          ['Purchase/', 1500, 1650],
          ['Finance', 1750, 1900],
        ],
        [['Total Dues', 2050, 2250]],
        [
          ['Balance', 1000, 1150],
          ['Credits', 1250, 1400],
          ['Debits', 1500, 1650],
          ['Charges', 1750, 1900],
        ],
        [
          ['17,706.01', 1000, 1150],
          ['17,706.01', 1250, 1400],
          ['2,980.48', 1500, 1650],
          ['0.00', 1800, 1900],
          ['2,980.00', 2100, 2250],
        ],
        [
          ['Date', 180, 260],
          ['Transaction Description', 400, 800],
          ['Amount (in Rs.)', 1900, 2200],
        ],
        [
          ['27/05/2025', 140, 330],
          ['CC PAYMENT 728325781258 PayZapp', 400, 1100],
          ['17,706.01 Cr', 1950, 2200],
        ],
        [
          ['04/06/2025', 140, 330],
          ['Flipkart Internet PrivateBengaluru', 400, 1000],
          ['1,412.00', 2050, 2200],
        ],
        [
          ['06/06/2025', 140, 330],
          ['DMART AVENUE SUPERMART AHMEDABAD', 400, 1000],
          ['234.50', 2090, 2200],
        ],
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([
      ['2025-05-27', 1770601, 'credit'],
      ['2025-06-04', 141200, 'debit'],
      ['2025-06-06', 23450, 'debit'],
    ]);
    expect(st).toMatchObject({ bankName: 'HDFC Bank', openingBalanceMinor: 1770601, currency: 'INR' });
  });

  it("reads dates spaced '23 / 06 / 2025' and 'Dr.'/'Cr.' marks; a masked card number; lakhs mean rupees; neither the reward points' balances nor a worked example's rows", () => {
    const rows: Array<Array<[string, number, number]>> = [
      [
        ['Name', 80, 160],
        [':', 200, 210],
        ['ASHA VERMA', 240, 600],
        ['Statement Date', 1000, 1300],
        ['18-Jul-2025', 1600, 1800],
      ],
      [
        ['Address :', 80, 220],
        ['12, LAKE VIEW ROAD', 240, 600],
        ['Card Number', 1000, 1300],
        ['4111 XXXX XXXX 1234', 1500, 1900],
      ],
      [
        ['Total Amount Due `', 1000, 1400],
        ['1,984.98', 1700, 1850],
      ],
      [
        ['Credit Limit `', 1000, 1300],
        ['5,20,000.00', 1650, 1850],
      ],
      [
        ['Cash Limit `', 1000, 1300],
        ['1,04,000.00', 1650, 1850],
      ],
      [
        ['Opening Balance', 1000, 1300],
        ['26,425.24', 1700, 1850],
      ],
      [
        ['Total Amount Due', 1000, 1300],
        ['1,984.98', 1700, 1850],
      ],
      [
        ['Date', 200, 280],
        ['Transaction Description', 400, 800],
        ['Amount `', 1900, 2100],
      ],
      [
        ['23 / 06 / 2025', 140, 400],
        ['ZUDIO A UNIT OF TRENT BANGALORE IN', 450, 1100],
        ['998.00 Dr.', 1950, 2150],
      ],
      [
        ['30 / 06 / 2025', 140, 400],
        ['PYMNT RCV BBPS', 450, 800],
        ['26,425.24 Cr.', 1900, 2150],
      ],
      [
        ['04 / 07 / 2025', 140, 400],
        ['AMAZON WEBSERVICES C BANGALORE IN', 450, 1100],
        ['487.98 Dr.', 1950, 2150],
      ],
      [['Reward Point Summary', 800, 1200]],
      [
        ['Opening Balance', 80, 350],
        ['Earned', 500, 650],
        ['Closing Balance', 1700, 2000],
      ],
      [
        ['4,424.00', 150, 300],
        ['44.00', 550, 650],
        ['4,468.00', 1800, 1950],
      ],
      [
        [
          'Credit Information companies, as are approved by Reserve Bank of India, AU Small Finance Bank reserves',
          80,
          2200,
        ],
      ],
      [['AU Small Finance Bank’s Available Credit Limit shown on this statement takes into account Charges', 80, 2200]],
      [['Illustration for calculating Interest & Late Payment Charges', 80, 1300]],
      [
        ['Date', 200, 280],
        ['Transaction / Details', 400, 800],
        ['Amount Balance', 1000, 1300],
        ['Transaction Type', 1400, 1700],
      ],
      [
        ['05-Dec Apparel Purchase', 140, 800],
        ['10,000', 1000, 1100],
        ['10,000', 1200, 1300],
        ['Debit', 1400, 1500],
      ],
      [
        ['Total Amount Due on statement dated Dec 23, 2024', 140, 1300],
        ['21,000', 1800, 1950],
      ],
    ];
    const page = lines(rows).map((l, i) => (i >= 16 ? { ...l, page: 2, rel: l.rel } : l));
    const st = statementFromLines(page);
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([
      ['2025-06-23', 99800, 'debit'],
      ['2025-06-30', 2642524, 'credit'],
      ['2025-07-04', 48798, 'debit'],
    ]);
    expect(st).toMatchObject({
      bankName: 'AU Small Finance Bank',
      accountNumber: '4111XXXXXXXX1234',
      currency: 'INR',
      openingBalanceMinor: 2642524,
      closingBalanceMinor: 198498,
    });
  });
});

describe('a Brazilian statement (extrato)', () => {
  it("reads 'Data | Lançamentos | Valor (R$) | Saldo (R$)': 'Valor' is the amount there, not a value date", () => {
    const st = statementFromLines(
      lines([
        [['Banco Exemplo S.A.', 140, 700]],
        [['Extrato de conta corrente', 140, 900]],
        [
          ['Data', 140, 240],
          ['Lançamentos', 400, 700],
          ['Valor (R$)', 1500, 1700],
          ['Saldo (R$)', 1900, 2100],
        ],
        [
          ['01/03/2024', 140, 330],
          ['SALDO ANTERIOR', 400, 800],
          ['1.000,00', 1950, 2100],
        ],
        [
          ['04/03/2024', 140, 330],
          ['PIX TRANSF MARIA S', 400, 900],
          ['-150,00', 1580, 1700],
          ['850,00', 1990, 2100],
        ],
        [
          ['05/03/2024', 140, 330],
          ['TED RECEBIDA ACME LTDA', 400, 1000],
          ['2.000,00', 1540, 1700],
          ['2.850,00', 1950, 2100],
        ],
        [
          ['07/03/2024', 140, 330],
          ['TAR PACOTE SERVICOS', 400, 900],
          ['-39,90', 1600, 1700],
          ['2.810,10', 1950, 2100],
        ],
      ]),
    );
    expect(typed(st)).toEqual([
      ['2024-03-04', 15000, 'debit', 85000],
      ['2024-03-05', 200000, 'credit', 285000],
      ['2024-03-07', 3990, 'debit', 281010],
    ]);
    expect(st.openingBalanceMinor).toBe(100000);
  });
});

describe('a Brazilian statement with debit and credit columns', () => {
  it("reads 'Data | Histórico | Crédito (R$) | Débito (R$) | Saldo (R$)'", () => {
    const st = statementFromLines(
      lines([
        [['Banco Exemplo S.A.', 140, 700]],
        [
          ['Data', 140, 240],
          ['Histórico', 400, 700],
          ['Crédito (R$)', 1300, 1500],
          ['Débito (R$)', 1600, 1800],
          ['Saldo (R$)', 1900, 2100],
        ],
        [
          ['04/03/2024', 140, 330],
          ['PIX TRANSF MARIA S', 400, 900],
          ['150,00', 1700, 1800],
          ['850,00', 1990, 2100],
        ],
        [
          ['05/03/2024', 140, 330],
          ['TED RECEBIDA ACME LTDA', 400, 1000],
          ['2.000,00', 1390, 1500],
          ['2.850,00', 1950, 2100],
        ],
        [
          ['07/03/2024', 140, 330],
          ['TAR PACOTE SERVICOS', 400, 900],
          ['39,90', 1720, 1800],
          ['2.810,10', 1950, 2100],
        ],
      ]),
    );
    expect(typed(st)).toEqual([
      ['2024-03-04', 15000, 'debit', 85000],
      ['2024-03-05', 200000, 'credit', 285000],
      ['2024-03-07', 3990, 'debit', 281010],
    ]);
  });
});

describe('a checks table printed three times side by side', () => {
  it("reads 'Checks' over 'DATE | CHECK# | AMOUNT($)' ×3 as debits, the year from 'Your new balance as of 06/17/2020'", () => {
    const st = statementFromLines(
      lines([
        [['Example Bank', 140, 700]],
        [['For 04/04/2022', 140, 500]],
        [
          ['Your previous balance as of 04/04/2022', 140, 900],
          ['$41,982.42', 1000, 1200],
        ],
        [
          ['Your new balance as of 06/17/2020', 140, 900],
          ['= $5,657.47', 1000, 1200],
        ],
        [['Checks', 140, 300]],
        [
          ['DATE', 140, 240],
          ['CHECK#', 340, 460],
          ['AMOUNT($)', 740, 900],
          ['DATE', 1080, 1180],
          ['CHECK#', 1280, 1400],
          ['AMOUNT($)', 1680, 1840],
          ['DATE', 2020, 2120],
          ['CHECK#', 2220, 2340],
          ['AMOUNT($)', 2620, 2780],
        ],
        [
          ['05/26', 140, 240],
          ['1401', 350, 440],
          ['450.00', 820, 900],
          ['06/05', 1080, 1180],
          ['*965025', 1290, 1420],
          ['101.39', 1760, 1840],
          ['06/09', 2020, 2120],
          ['985026', 2230, 2350],
          ['150.00', 2700, 2780],
        ],
      ]),
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual([
      ['2020-05-26', 45000, 'debit'],
      ['2020-06-05', 10139, 'debit'],
      ['2020-06-09', 15000, 'debit'],
    ]);
  });
});

describe('a UK current account over two pages (fresh sample 11, dev; made-up holder and payees)', () => {
  /** Lines of several pages: each row is [page, cells]. */
  function paged(rows: Array<[number, Array<[string, number, number]>]>): Line[] {
    const perPage = new Map<number, number>();
    return rows.map(([page, cells], i) => {
      const k = perPage.get(page) ?? 0;
      perPage.set(page, k + 1);
      return {
        page,
        index: i,
        y0: 100 + 14 * k,
        y1: 110 + 14 * k,
        rel: (100 + 14 * k) / 842,
        cells: cells.map(([text, x0, x1]) => ({ text, x0, x1 })),
        text: cells.map((c) => c[0]).join('  '),
        size: 9,
      };
    });
  }
  const header: Array<[string, number, number]> = [
    ['Date', 53, 70],
    ['Payment type and details', 117, 230],
    ['£ Paid out', 350, 390],
    ['£ Paid in', 438, 470],
    ['£ Balance', 513, 550],
  ];
  const st = statementFromLines(
    paged([
      [1, [['Your Statement', 437, 520]]],
      [1, [['Mr A Sample', 61, 140]]],
      [1, [['1 Sample Street', 61, 150]]],
      [
        1,
        [
          ['Opening Balance', 360, 430],
          ['£209 .06', 518, 550],
        ],
      ],
      [
        1,
        [
          ['Payments In', 360, 420],
          ['£750.00', 518, 550],
        ],
      ],
      [
        1,
        [
          ['Payments Out', 360, 425],
          ['£43.10', 518, 550],
        ],
      ],
      [
        1,
        [
          ['Closing Balance', 360, 430],
          ['£915.96', 518, 550],
        ],
      ],
      [
        1,
        [
          ['9 July to 8 August 2025', 52, 160],
          ['Bank Identifier Code', 356, 450],
        ],
      ],
      [
        1,
        [
          ['Account Name', 52, 110],
          ['Sortcode', 356, 395],
          ['Account Number Sheet Number', 415, 530],
        ],
      ],
      [
        1,
        [
          ['Mr A Sample', 52, 110],
          ['00-11-22', 356, 395],
          ['12345678', 415, 450],
          ['232', 493, 510],
        ],
      ],
      [1, header],
      [
        1,
        [
          ['08 Jul 25', 53, 90],
          ['BALANCE BROUGHT FORWARD', 140, 260],
          ['209.06', 522, 550],
        ],
      ],
      [
        1,
        [
          ['01 Aug 25', 53, 90],
          ['DD', 112, 125],
          ['GREEN ENERGY', 139, 220],
          ['40.00', 366, 390],
          ['169.06', 522, 550],
        ],
      ],
      [
        1,
        [
          ['BALANCE CARRIED FORWARD', 139, 260],
          ['169.06', 522, 550],
        ],
      ],
      [2, [['9 July to 8 August 2025', 52, 160]]],
      [2, header],
      [
        2,
        [
          ['BALANCE BROUGHT FORWARD', 139, 260],
          ['169.06', 522, 550],
        ],
      ],
      [
        2,
        [
          ['TFR', 112, 125],
          ['001122 87654321', 139, 220],
        ],
      ],
      [
        2,
        [
          ['SALARY LTD', 139, 220],
          ['750.00', 449, 470],
        ],
      ],
      [
        2,
        [
          ['VIS', 112, 125],
          ['CORNER SHOP', 139, 220],
          ['3.10', 375, 390],
          ['915.96', 522, 550],
        ],
      ],
      [
        2,
        [
          ['BALANCE CARRIED FORWARD', 139, 260],
          ['915.96', 522, 550],
        ],
      ],
    ]),
  );

  it("reads the period printed without a label or a first year ('9 July to 8 August 2025'), the account number under its label, and '£209 .06'", () => {
    expect(st).toMatchObject({
      startDate: '2025-07-09',
      endDate: '2025-08-08',
      accountNumber: '12345678',
      openingBalanceMinor: 20906,
      closingBalanceMinor: 91596,
    });
  });

  it('gives the bookings at the head of page 2 the day page 1 ended on, not the period repeated above them', () => {
    expect(typed(st)).toEqual([
      ['2025-08-01', 4000, 'debit', 16906],
      ['2025-08-01', 75000, 'credit', null],
      ['2025-08-01', 310, 'debit', 91596],
    ]);
    expect(st.warnings).toEqual([]);
  });
});

describe('a US card statement with its activity in sections (made-up holder and merchants)', () => {
  it("reads 'PAYMENTS AND OTHER CREDITS' as credits and 'PURCHASE' as debits, no summary label as the bank", () => {
    const st = statementFromLines(
      linesFromPlainText(`CARD SERVICES
Opening/Closing Date                                   04/13/24 - 05/12/24
Account Number: XXXX XXXX XXXX 1234
ACCOUNT SUMMARY
Previous Balance                                        $1,200.00
Payment, Credits                                        -$1,200.00
Purchases                                                 +$85.50
New Balance                                                $85.50
Payment Due Date                                          06/07/24
Minimum Payment Due                                         $40.00
ACCOUNT ACTIVITY
    Date of
Transaction          Merchant Name or Transaction Description          $ Amount
PAYMENTS AND OTHER CREDITS
04/20                Payment Thank You-Mobile                          -1,200.00
PURCHASE
04/15                CORNER COFFEE 1234 SEATTLE WA                          5.50
04/22                BOOKSHOP ONLINE*AB12CD                                80.00
2024 Totals Year-to-Date
Total fees charged in 2024                                                 $0.00`),
    );
    expect(st.bankName).not.toBe('Payment, Credits');
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type, t.description])).toEqual([
      ['2024-04-20', 120000, 'credit', 'Payment Thank You-Mobile'],
      ['2024-04-15', 550, 'debit', 'CORNER COFFEE 1234 SEATTLE WA'],
      ['2024-04-22', 8000, 'debit', 'BOOKSHOP ONLINE*AB12CD'],
    ]);
  });
});

describe('gen41 dev layouts (made-up banks and holders)', () => {
  const read = (text: string) => statementFromLines(linesFromPlainText(text));
  const rows = (st: ReturnType<typeof read>) => st.transactions.map((t) => [t.date, t.amountMinor, t.type]);

  it("a Mexican 'FECHA OPER | FECHA LIQ' table of '02/ENE' dates: the settlement date books it", () => {
    const st = read(`Banco del Valle                                    ESTADO DE CUENTA
                                          Periodo          DEL 01/01/2026 AL 31/01/2026
                                          No. de Cuenta    7129644389
 Saldo Anterior                                                   $51,091.36
 FECHA          FECHA
                              DESCRIPCIÓN                           CARGOS           ABONOS           SALDO
 OPER            LIQ
02/ENE         02/ENE         RETIRO CAJERO AUTOMATICO             1,500.00                          49,591.36
03/ENE         05/ENE         TIENDA 1207                          1,779.33                          47,812.03
08/ENE         08/ENE         SPEI RECIBIDO                                         2,000.00         49,812.03`);
    expect(rows(st)).toEqual([
      ['2026-01-02', 150000, 'debit'],
      ['2026-01-05', 177933, 'debit'],
      ['2026-01-08', 200000, 'credit'],
    ]);
  });

  it("a checks-paid grid in three groups, each row led by the check's number", () => {
    const st = read(`First Cascade Bank
Statement Period 02/10/2026 - 03/09/2026
Checks Paid

 Number           Date Paid                   Amount          Number            Date Paid                  Amount
 2317             2/12                         792.75         2320*             2/19                        560.00
 2324*            2/23                          75.11
* Indicates a break in check number sequence.            Total Checks Paid: $1,427.86`);
    expect(rows(st)).toEqual([
      ['2026-02-12', 79275, 'debit'],
      ['2026-02-19', 56000, 'debit'],
      ['2026-02-23', 7511, 'debit'],
    ]);
  });

  it('a summary of checks that the history already lists is not read again, and the next account is', () => {
    const st = read(`Hillcrest Bank
Statement period 07/20/2021 - 08/16/2021
       Date                 Number Description                        Additions          Subtractions
       7/20                 548    Check                                                      399.14
       7/21                        Payroll Deposit                     1,300.00
Summary of checks written          (checks listed are also displayed in the preceding Transaction history)

       Number              Date                 Amount          Number              Date                Amount
       548                 7/20                   399.14

        * Gap in check sequence.
Savings account
       Date                 Number Description                        Additions          Subtractions
       7/30                        Interest                                 0.12`);
    expect(rows(st)).toEqual([
      ['2021-07-20', 39914, 'debit'],
      ['2021-07-21', 130000, 'credit'],
      ['2021-07-30', 12, 'credit'],
    ]);
  });

  it("'Kontostand am' before the first booking opens the statement and after the last closes it; an IBAN as printed after its label", () => {
    const st = read(`Sparkasse Talblick
                                                   IBAN            DE11 2222 3333 4444 5555 66
                                                   Zeitraum        01.01.2026 - 31.01.2026
Buchungstag Wert                   Verwendungszweck                                      Betrag (EUR)
                                   Kontostand am 31.12.2025, Auszug Nr. 12                   2.462,85
05.01.2026        05.01.2026       Dauerauftrag Miete                                       -1.260,00
14.01.2026        14.01.2026       Gutschrift Überw.                                          +421,62
                                   Kontostand am 31.01.2026, Auszug Nr. 1                    1.624,47`);
    expect(st.openingBalanceMinor).toBe(246285);
    expect(st.closingBalanceMinor).toBe(162447);
    expect(st.accountNumber).toBe('DE11222233334444555566');
    expect(rows(st)).toEqual([
      ['2026-01-05', 126000, 'debit'],
      ['2026-01-14', 42162, 'credit'],
    ]);
  });

  it('the last account label of a line, and the balance carried forward under the last booking as the closing one', () => {
    const st = read(`STRAITS HARBOUR BANK                                   STATEMENT OF ACCOUNT
                                          Statement Period : 01 MAR 2026 TO 31 MAR 2026
  EVERYDAY SAVINGS ACCOUNT Account No. 190-884111-5
Date              Description                   Withdrawal (SGD)     Deposit (SGD)     Balance (SGD)
                  Balance Brought Forward                                                   5,411.86
02 MAR            FAST PAYMENT                        1,470.00                              3,941.86
31 MAR            ATM WITHDRAWAL                        200.00                              3,741.86
                  Balance Carried Forward                                                   3,741.86`);
    expect(st.accountNumber).toBe('190-884111-5');
    expect(st.openingBalanceMinor).toBe(541186);
    expect(st.closingBalanceMinor).toBe(374186);
  });
});
