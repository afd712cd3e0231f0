import { describe, expect, it } from 'vitest';
import type { Line } from '../extraction/extraction.types';
import { amountCell, inPeriodYear, misreadOf, ocrAmountRepair, statementFromLines } from './pdf.table';

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
    // Monospaced print: a space read after the decimal separator.
    ['668. 85', '.', '668.85'],
    ['5,589, 71', '.', '5589.71'],
    ['Ref. 12', '.', 'Ref. 12'],
    ['12 345', '.', '12 345'],
  ] as const)('%s → %s', (text, hint, want) => {
    expect(ocrAmountRepair(text, 2, hint)).toBe(want);
  });

  it('reads the repaired amounts and leaves a short date alone', () => {
    expect(amountCell('1,468,26', 2, ',')).toEqual({ minor: 146826, type: null });
    expect(amountCell('1 -1:145,31', 2, ',')).toEqual({ minor: 114531, type: 'debit' });
    expect(amountCell('05.03.', 2, ',')).toBeNull();
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

describe('statement table from OCR lines: garbled balances and dates', () => {
  const table = (rows: Array<Array<[string, number, number]>>) =>
    statementFromLines(
      lines([
        ...head,
        [['Opening balance: 4,442.05', 1240, 1910]],
        [
          ['Date', 140, 217],
          ['Description', 381, 569],
          ['Value date', 1150, 1330],
          ['Amount', 1487, 1616],
          ['Balance', 1819, 1909],
        ],
        ...rows,
      ]),
    );

  it('follows balances whose leading digits or sign OCR lost, and reads a short date with a colon as no amount', () => {
    const st = table([
      // 4,442.05 − 209.44 = 4,232.61, read without its thousands.
      [
        ['02/06/2023', 139, 314],
        ['Card payment', 381, 835],
        ['02.06.', 1172, 1290],
        ['209.44', 1508, 1616],
        ['.232.61', 1787, 1908],
      ],
      // + 2,447.02 = 6,679.63, read without its thousands; the value date read as "06:06.".
      [
        ['05/06/2023', 139, 314],
        ['Salary', 381, 835],
        ['06:06.', 1173, 1290],
        ['2,447.02', 1471, 1616],
        ['.679.63', 1788, 1908],
      ],
      // − 125.81 = 6,553.82 with a stray dash read as a minus.
      [
        ['05/06/2023', 139, 314],
        ['Cash withdrawal', 381, 835],
        ['05.06.', 1173, 1290],
        ['125.81', 1510, 1616],
        ['6,553.82-', 1770, 1908],
      ],
      [
        ['09/06/2023', 139, 314],
        ['Standing order', 381, 835],
        ['10.06.', 1174, 1290],
        ['3,200.83', 1471, 1616],
        ['3,352.99', 1770, 1908],
      ],
    ]);
    expect(typed(st)).toEqual([
      ['2023-06-02', 20944, 'debit', 423261],
      ['2023-06-05', 244702, 'credit', 667963],
      ['2023-06-05', 12581, 'debit', 655382],
      ['2023-06-09', 320083, 'debit', 335299],
    ]);
  });

  it('leaves a balance with lost digits that fits neither direction as read', () => {
    const st = table([
      [
        ['02/06/2023', 139, 314],
        ['Card payment', 381, 835],
        ['209.44', 1508, 1616],
        ['4,232.61', 1770, 1908],
      ],
      // Neither 4,232.61 ± 100.00 ends in 555.55: no repair, no direction from the balances.
      [
        ['05/06/2023', 139, 314],
        ['Salary', 381, 835],
        ['100.00', 1508, 1616],
        ['.555.55', 1788, 1908],
      ],
      [
        ['06/06/2023', 139, 314],
        ['Refund', 381, 835],
        ['10.00', 1508, 1616],
        ['4,142.61', 1770, 1908],
      ],
    ]);
    // One of three steps fits: too few for the balances to decide anything; the rows stay as read.
    expect(typed(st)).toEqual([
      ['2023-06-02', 20944, 'credit', 423261],
      ['2023-06-05', 10000, 'credit', 55555],
      ['2023-06-06', 1000, 'credit', 414261],
    ]);
  });

  it('restores several unreadable amounts in a row when the row after them or the closing balance confirms them', () => {
    const st = table([
      [
        ['02/06/2023', 139, 314],
        ['Card payment', 381, 835],
        ['209.44', 1508, 1616],
        ['4,232.61', 1770, 1908],
      ],
      [
        ['05/06/2023', 139, 314],
        ['Cash', 381, 835],
        ['567', 1540, 1616],
        ['3,983.94', 1770, 1908],
      ],
      [
        ['06/06/2023', 139, 314],
        ['Rent', 381, 835],
        ['.44', 1560, 1616],
        ['3,633.50', 1770, 1908],
      ],
      [
        ['07/06/2023', 139, 314],
        ['Refund', 381, 835],
        ['10.00', 1508, 1616],
        ['3,643.50', 1770, 1908],
      ],
    ]);
    expect(typed(st).map((t) => [t[1], t[2]])).toEqual([
      [20944, 'debit'],
      [24867, 'debit'],
      [35044, 'debit'],
      [1000, 'credit'],
    ]);
    // The same rows with a misread balance after them: nothing confirms the two, so they are dropped.
    const broken = table([
      [
        ['02/06/2023', 139, 314],
        ['Card payment', 381, 835],
        ['209.44', 1508, 1616],
        ['4,232.61', 1770, 1908],
      ],
      [
        ['05/06/2023', 139, 314],
        ['Cash', 381, 835],
        ['567', 1540, 1616],
        ['3,983.94', 1770, 1908],
      ],
      [
        ['06/06/2023', 139, 314],
        ['Rent', 381, 835],
        ['.44', 1560, 1616],
        ['3,633.50', 1770, 1908],
      ],
      [
        ['07/06/2023', 139, 314],
        ['Refund', 381, 835],
        ['10.00', 1508, 1616],
        ['3,613.50', 1770, 1908],
      ],
    ]);
    expect(typed(broken).map((t) => t[1])).toEqual([20944, 1000]);
  });
});

describe('statement table from OCR lines: cut rows and garbled dates', () => {
  const tableHead: Array<Array<[string, number, number]>> = [
    ...head,
    [['Opening balance: 100.00', 1240, 1910]],
    [
      ['Date', 140, 217],
      ['Description', 381, 569],
      ['Amount', 1487, 1616],
      ['Balance', 1819, 1909],
    ],
  ];
  /** Moves line `k` to `dy` px below line `k - 1` (a skewed scan's cut rows sit closer than a line height). */
  const nudge = (ls: Line[], k: number, dy: number) => {
    ls[k] = { ...ls[k]!, y0: ls[k - 1]!.y0 + dy, y1: ls[k - 1]!.y1 + dy };
  };

  it('joins a dated piece and an undated one side by side (description end and amount), not a speck left of the date', () => {
    const rows = lines([
      ...tableHead,
      // The undated piece first: the skew lifted the description's end and the amount above the date.
      [
        ['Cash withdrawal Librairie du', 579, 1000],
        ['-20.00', 1494, 1616],
      ],
      [
        ['05/06/2023', 133, 314],
        ['Parc', 1078, 1160],
        ['80.00', 1775, 1908],
      ],
      [
        ['10/06/2023', 139, 314],
        ['Direct debit', 381, 600],
        ['Mutual', 735, 900],
        ['-5.00', 1512, 1616],
        ['75.00', 1775, 1908],
      ],
      // A speck left of the date and the rest of the description: continuation text, not a row.
      [
        ['-', 115, 130],
        ['Insurance', 571, 700],
      ],
    ]);
    nudge(rows, tableHead.length + 1, 14);
    nudge(rows, tableHead.length + 3, 1);
    const st = statementFromLines(rows);
    expect(typed(st)).toEqual([
      ['2023-06-05', 2000, 'debit', 8000],
      ['2023-06-10', 500, 'debit', 7500],
    ]);
    expect(st.transactions[0]!.description).toContain('Librairie du');
    // Half a line or more apart, they stay two lines: the dated one has no amount of its own, so no row.
    const apart = lines([
      ...tableHead,
      ...rows
        .slice(tableHead.length, tableHead.length + 2)
        .map((l) => l.cells.map((c): [string, number, number] => [c.text, c.x0, c.x1])),
    ]);
    nudge(apart, tableHead.length + 1, 20);
    expect(typed(statementFromLines(apart)).map((t) => t[0])).not.toContain('2023-06-05');
  });

  it('reads dates whose separators OCR read as colons', () => {
    const st = statementFromLines(
      lines([
        ...tableHead,
        [
          ['27:06:2023', 139, 314],
          ['Refund', 381, 835],
          ['10.00', 1512, 1616],
          ['110.00', 1775, 1908],
        ],
        [
          ['28/06:2023', 139, 314],
          ['Fee', 381, 835],
          ['-1.00', 1512, 1616],
          ['109.00', 1775, 1908],
        ],
      ]),
    );
    expect(typed(st).map((t) => t[0])).toEqual(['2023-06-27', '2023-06-28']);
  });

  it('without a header, takes no row whose date starts far right of the dates above it (a summary line)', () => {
    const st = statementFromLines(
      lines([
        ...head,
        [
          ['05/06/2023', 139, 314],
          ['Card payment', 381, 835],
          ['-20.00', 1494, 1616],
        ],
        [
          ['10/06/2023', 139, 314],
          ['Refund', 381, 835],
          ['5.00', 1512, 1616],
        ],
        [['Credit interest 01/06/2023', 139, 500]],
        [
          ['- 30/06/2023', 540, 700],
          ['2.82', 1526, 1616],
        ],
      ]),
    );
    expect(typed(st).map((t) => [t[0], t[1]])).toEqual([
      ['2023-06-05', 2000],
      ['2023-06-10', 500],
    ]);
  });
});

describe('statement table from OCR lines: misread amounts the balances correct', () => {
  it.each([
    [97909, 197909, true],
    [1115215, 115215, true],
    [82700, 82701, true],
    [82700, 82811, false],
    [9, 109, false],
    [12345, 99999, false],
  ] as const)('misreadOf(%i, %i) = %s', (read, truth, want) => {
    expect(misreadOf(read, truth)).toBe(want);
  });

  const table = (lastBalance: string) =>
    statementFromLines(
      lines([
        ...head,
        [['Opening balance: 3,000.00', 1240, 1910]],
        [
          ['Date', 140, 217],
          ['Description', 381, 569],
          ['Amount', 1487, 1616],
          ['Balance', 1819, 1909],
        ],
        [
          ['02/06/2023', 139, 314],
          ['Salary', 381, 835],
          ['1,979.09', 1471, 1616],
          ['4,979.09', 1770, 1908],
        ],
        // 1,928.40 read without its leading digit.
        [
          ['05/06/2023', 139, 314],
          ['Transfer', 381, 835],
          ['928.40', 1508, 1616],
          ['3,050.69', 1770, 1908],
        ],
        [
          ['09/06/2023', 139, 314],
          ['Refund', 381, 835],
          ['50.00', 1508, 1616],
          [lastBalance, 1770, 1908],
        ],
      ]),
    );

  it('takes the amount the balances around it tell when the row after confirms them, and only then', () => {
    expect(typed(table('3,100.69')).map((t) => [t[1], t[2]])).toEqual([
      [197909, 'credit'],
      [192840, 'debit'],
      [5000, 'credit'],
    ]);
    // The next balance does not follow: the misread amount stays as read.
    expect(typed(table('3,900.69'))[1]![1]).toBe(92840);
  });

  it('keeps a row merged with a speck line beside it (the merged line has the row size, not the speck size)', () => {
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
        ['01/06/2023', 133, 314],
        ['Card', 381, 835],
        ['-10.00', 1512, 1616],
        ['90.00', 1775, 1908],
      ],
      [['|', 363, 368]],
      [
        ['02/06/2023', 141, 314],
        ['Card', 381, 835],
        ['-10.00', 1512, 1616],
        ['80.00', 1775, 1908],
      ],
    ]);
    const k = head.length + 3;
    rows[k] = { ...rows[k]!, size: 2, y1: rows[k]!.y0 + 2 };
    rows[k + 1] = { ...rows[k + 1]!, y0: rows[k]!.y0 + 10, y1: rows[k]!.y0 + 40 };
    expect(typed(statementFromLines(rows)).map((t) => t[0])).toEqual(['2023-06-01', '2023-06-02']);
  });
});

describe('booking dates with a misread year', () => {
  it.each([
    ['2028-12-30', '2024-12-01', '2024-12-31', '2024-12-30'],
    ['2025-01-03', '2024-12-15', '2025-01-14', '2025-01-03'],
    ['2021-01-03', '2024-12-15', '2025-01-14', '2025-01-03'],
    // Outside the period in every one of its years, or no period: kept as read.
    ['2028-11-30', '2024-12-01', '2024-12-31', '2028-11-30'],
    ['2028-12-30', null, null, '2028-12-30'],
    ['2024-12-30', '2024-12-01', '2024-12-31', '2024-12-30'],
  ] as const)('%s in %s..%s → %s', (iso, start, end, want) => {
    expect(inPeriodYear(iso, start, end)).toBe(want);
  });
});
