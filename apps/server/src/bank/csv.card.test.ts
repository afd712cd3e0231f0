import { describe, expect, it } from 'vitest';
import { csvReader, parseCsvStatement } from './csv.reader';

const csv = (text: string) => {
  const r = parseCsvStatement(new TextEncoder().encode(text));
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const st = r.statements[0]!;
  return {
    rows: st.transactions.map((t) => [t.date, t.amountMinor, t.type]),
    warnings: st.warnings.map((w) => w.code),
  };
};

describe('CSV card exports that list purchases as positive amounts', () => {
  it('reads them as debits when the file is a card export and its negative rows are payments', () => {
    const r = csv(
      [
        'Date,Description,Card Member,Account #,Amount,Currency',
        '2024-03-02,AMAZON MARKETPLACE,J DOE,-71005,25.99,USD',
        '2024-03-05,SHELL OIL 5744,J DOE,-71005,48.10,USD',
        '2024-03-07,UBER TRIP,J DOE,-71005,12.40,USD',
        '2024-03-09,ONLINE PAYMENT - THANK YOU,J DOE,-71005,-500.00,USD',
        '2024-03-11,REFUND AMAZON MARKETPLACE,J DOE,-71005,-25.99,USD',
      ].join('\n'),
    );
    expect(r.rows).toEqual([
      ['2024-03-02', 2599, 'debit'],
      ['2024-03-05', 4810, 'debit'],
      ['2024-03-07', 1240, 'debit'],
      ['2024-03-09', 50000, 'credit'],
      ['2024-03-11', 2599, 'credit'],
    ]);
    expect(r.warnings).toContain('signs_inverted');
  });

  it('in German too (Kreditkarte in the lines above the header)', () => {
    const r = csv(
      [
        'Kreditkarte;4548 **** **** 1234',
        '',
        'Buchungsdatum;Buchungstext;Betrag;Währung',
        '02.03.2024;REWE SAGT DANKE;25,99;EUR',
        '05.03.2024;DB VERTRIEB;48,10;EUR',
        '09.03.2024;Zahlung erhalten;-74,09;EUR',
      ].join('\n'),
    );
    expect(r.rows.map((x) => x[2])).toEqual(['debit', 'debit', 'credit']);
  });

  it("takes the posting date ('Ecriture') over the purchase date ('Date d'achat') and 'Texte comptable' as the text", () => {
    const r = parseCsvStatement(
      new TextEncoder().encode(
        [
          'sep=;',
          "Numéro de compte;Date d'achat;Texte comptable;Secteur;Montant;Monnaie;Débit;Crédit;Ecriture",
          '1234 5678 9012;28.10.2019;TWINT  *Post CH AG;Service de courrier;1215.00;CHF;1215.00;;29.10.2019',
          '1234 5678 9012;02.11.2019;Revolut*1234*;Services bancaires;2500.00;CHF;2500.00;;15.11.2019',
        ].join('\n'),
      ),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const t = r.statements[0]!.transactions;
    expect(t.map((x) => [x.date, x.amountMinor, x.type])).toEqual([
      ['2019-10-29', 121500, 'debit'],
      ['2019-11-15', 250000, 'debit'],
    ]);
    expect(t[0]!.description).toContain('TWINT');
  });

  it("reads a shop's order history as purchases: its totals are money spent", () => {
    const r = csv(
      [
        'order id,order url,items,to,date,total,tax,refund,payments',
        '112-1635210-7125801,https://shop.example/1,"Spray cleaner, 4 fl. oz.",J Doe,2022-12-20,4.22,0.24,0,"Visa: $4.22"',
        '111-3273904-8117030,https://shop.example/2,Light bulb,J Doe,2022-12-21,7.42,0.42,0,"Visa: $7.42"',
        'D01-1234567-8901234,https://shop.example/3,,,pending,,,,',
      ].join('\n'),
    );
    expect(r.rows).toEqual([
      ['2022-12-20', 422, 'debit'],
      ['2022-12-21', 742, 'debit'],
    ]);
    expect(r.warnings).toContain('signs_inverted');
    const de = csv(
      ['Bestellnummer;Datum;Artikel;Summe', '302-1;02.03.2024;Kabel;12,99', '302-2;05.03.2024;Lampe;25,00'].join('\n'),
    );
    expect(de.rows.map((x) => x[2])).toEqual(['debit', 'debit']);
  });

  it('follows the running balance where there is one, card words or not', () => {
    // The balance is the holder's (negative: owed) and goes down by each positive amount: those are charges.
    const r = csv(
      [
        'Date,Description,Amount,Balance',
        '2024-03-02,Grocer,25.00,-125.00',
        '2024-03-05,Fuel,40.00,-165.00',
        '2024-03-09,Payment,-100.00,-65.00',
      ].join('\n'),
    );
    expect(r.rows.map((x) => x[2])).toEqual(['debit', 'debit', 'credit']);
  });

  it('leaves a bank account export alone: negative purchases, or a card column with card purchases negative', () => {
    const bank = csv(
      [
        'Date,Description,Card,Amount',
        '2024-03-02,Card payment Grocer,**** 1234,-25.00',
        '2024-03-05,Salary ACME,,2500.00',
        '2024-03-09,Card payment Fuel,**** 1234,-40.00',
      ].join('\n'),
    );
    expect(bank.rows.map((x) => x[2])).toEqual(['debit', 'credit', 'debit']);
    expect(bank.warnings).not.toContain('signs_inverted');
    const balanced = csv(
      ['Date,Description,Amount,Balance', '2024-03-02,Grocer,-25.00,75.00', '2024-03-05,Salary,40.00,115.00'].join(
        '\n',
      ),
    );
    expect(balanced.rows.map((x) => x[2])).toEqual(['debit', 'credit']);
  });
});

describe('CSV exports of a third fresh sample', () => {
  it("reads a card issuer's export (CardId) whose refunds do not say so, but not a merchant's card payments", () => {
    const r = csv(
      [
        'TransactionId,CardId,Date,Amount,Currency,MerchantName',
        'T1,0000XXXX,2025-03-01 15:12:22,29.000,CHF,Jschalp Gastro AG',
        'T2,0000XXXX,2025-04-29 12:51:51,10.000,CHF,Apple',
        'T3,0000XXXX,2025-05-05 10:16:57,12.900,CHF,Windsurf',
        'T4,0000XXXX,2025-05-28 00:00:00,-80.000,CHF,APPLE.COM/BILL',
      ].join('\n'),
    );
    expect(r.rows.map((x) => x[2])).toEqual(['debit', 'debit', 'debit', 'credit']);
    const stripe = csv(
      [
        'id,created,amount,currency,customer_id,card_id',
        'ch_1,2021-02-03 13:12,25.00,cad,cus_1,pm_1',
        'ch_2,2021-02-03 06:53,27.50,cad,cus_2,pm_2',
        'ch_3,2021-02-02 23:54,25.00,cad,cus_3,pm_3',
        'ch_4,2021-02-01 10:00,-5.00,cad,cus_4,pm_4',
      ].join('\n'),
    );
    expect(stripe.rows.map((x) => x[2])).toEqual(['credit', 'credit', 'credit', 'debit']);
  });

  it('reads dates with a month word and a time, Russian booking columns, and a tab-separated .txt with an account line', () => {
    expect(
      csv(
        [
          'Account Number,"999-9-499999",Available Balance,"141,225.18",',
          '',
          ',Date,Description,Debit,Credit,Balance,Channel,',
          '" ","22 May 2025 21:27","Payment for Goods","1,684.00","","141,225.18","MOB",',
          '" ","19 May 2025 16:38","Transfer","","1,198.00","142,909.18","MOB",',
        ].join('\n'),
      ).rows,
    ).toEqual([
      ['2025-05-22', 168400, 'debit'],
      ['2025-05-19', 119800, 'credit'],
    ]);
    expect(
      csv(
        [
          'Тип карты;Дата совершения операции;Дата обработки операции;Описание;Валюта операции;Сумма в валюте операции;Сумма в валюте счета;',
          'Основная;30.10.2019;31.10.2019;SBOL перевод;;;-4320,4;',
          'Основная;11.10.2019;11.10.2019;SBOL перевод;;;1000;',
        ].join('\n'),
      ).rows,
    ).toEqual([
      ['2019-10-31', 432040, 'debit'],
      ['2019-10-11', 100000, 'credit'],
    ]);
    const nordea = new TextEncoder().encode(
      'Tilinumero\tFI0000000000\n\nKirjauspäivä\tArvopäivä\tMäärä\tSaaja/Maksaja\n\n25.01.2012\t25.01.2012\t-100,00\tSample Payee\n\n26.01.2012\t26.01.2012\t500,00\tSample Payee 2\n',
    );
    expect(csvReader.accepts(nordea, 'nordea_example.txt')).toBe(true);
    expect(csv(new TextDecoder().decode(nordea)).rows).toEqual([
      ['2012-01-25', 10000, 'debit'],
      ['2012-01-26', 50000, 'credit'],
    ]);
  });
});
