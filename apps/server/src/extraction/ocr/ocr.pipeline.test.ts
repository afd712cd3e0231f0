import { afterAll, describe, expect, it } from 'vitest';
import { generateInvoice } from '../../../eval/invoice.generator';
import { renderPhoto, renderScan } from '../../../eval/invoice.renderers';
import { OCR_CONFIDENCE_FACTOR } from '../confidence';
import { extractInvoiceFields, publicFields, shutdownExtraction } from '../index';
import { inspectImage } from './image.loader';
import type { OcrEngine, OcrPage } from './ocr.engine';
import {
  CYRILLIC_OCR_LANGS,
  chineseReading,
  cjkEngine,
  cyrillicEngine,
  DEFAULT_OCR_LANGS,
  pageLanguages,
  readInPageLanguage,
  type UndecidedLanguage,
  weakReading,
} from './ocr.pipeline';

describe('languages of the full reading, from the English probe', () => {
  const probe = (text: string) => ({
    words: text.split(' ').map((t, i) => ({ text: t, x0: i, x1: i + 1, y0: 0, y1: 1, page: 1, confidence: 90 })),
    width: 100,
    height: 10,
    confidence: 90,
  });
  it.each([
    ['Rechnung Nr. 4711 Datum 05.03.2024 Summe netto MwSt', ['deu', 'eng']],
    ['Facture n° 12 du 05/03/2024 Montant TVA client', ['fra', 'eng']],
    ['Invoice number 12 Invoice date Total due', ['eng']],
    ['4711 05.03.2024 12,00', DEFAULT_OCR_LANGS],
    ['Nota Fiscal emissão 05/03/2024 valor total CNPJ', ['por', 'eng']],
    ['Faktura VAT Sprzedawca Nabywca NIP razem do zapłaty', ['pol', 'eng']],
    ['Faktura dodavatel odběratel celkem k úhradě DIČ', ['ces', 'eng']],
    ['Faktura fakturadatum förfallodatum att betala moms', ['swe', 'eng']],
    // Vietnamese as the English model reads it (tone marks misread, the base letters right).
    ['Tién khâch tra: 127,000 Thu ngán: BH5 Xin cám on quÿ khách', ['vie', 'eng']],
    ['請求書 請求書番号 合計金額 11,000 円', ['jpn', 'eng']],
    ['增值税电子普通发票 价税合计 开票日期 销售方 有限公司', ['chi_sim', 'eng']],
  ])('%s', (text, langs) => {
    expect(pageLanguages(probe(text))).toEqual(langs);
  });
});

describe('a page the English probe reads as noise', () => {
  const reading = (text: string, confidence: number): OcrPage => ({
    words: text.split(' ').map((t, i) => ({ text: t, x0: i, x1: i + 1, y0: 0, y1: 1, page: 1, confidence })),
    width: 100,
    height: 10,
    confidence,
  });
  const engines = (jpnReading: OcrPage, zhReading: OcrPage = reading('SUMME 12,07', 40)) => {
    const opened: string[] = [];
    let bands = 0;
    const jpn = { recognize: async () => jpnReading, terminate: async () => {} };
    const zh = { recognize: async () => zhReading, terminate: async () => {} };
    const both = { recognize: async () => jpnReading, terminate: async () => {} };
    const factory = async (langs: readonly string[]) => {
      opened.push(langs.join('+'));
      return (langs.length === 1 ? (langs[0] === 'chi_sim' ? zh : jpn) : both) as OcrEngine;
    };
    const band = async () => {
      bands++;
      return [new Uint8Array()];
    };
    return { opened, factory, band, both, bands: () => bands };
  };

  it('is read in Japanese when the Japanese model finds kana and kanji there', async () => {
    const e = engines(reading('預/現計 ¥5,000 (消費税等 ¥409) お釣 ¥500', 85));
    const got = await cjkEngine(reading('1) ¥4 00 YR Hw ¥5,000 (HRB & ¥409) PAS', 35), e.band, 1, e.factory);
    expect(got).toBe(e.both);
    expect(e.opened).toEqual(['jpn', 'jpn+eng']);
  });

  it("stays as it is when the Japanese model makes kana of a photo's specks (a Polish receipt on a dark table)", async () => {
    const e = engines(reading('で と ご 営 る ちと キー キー ジオ ご', 75));
    expect(await cjkEngine(reading('~ ee Biedr0nka 110709', 40), e.band, 1, e.factory)).toBeNull();
    expect(e.opened).not.toContain('jpn+eng');
  });

  it('is read with the Cyrillic models when the Ukrainian model reads the band as Cyrillic', async () => {
    const opened: string[] = [];
    const band = async () => [new Uint8Array()];
    const engine = (text: string) => ({ recognize: async () => reading(text, 85), terminate: async () => {} });
    const factory = (ukrText: string) => async (langs: readonly string[]) => {
      opened.push(langs.join('+'));
      return (langs.length === 1 ? engine(ukrText) : engine('')) as OcrEngine;
    };
    const noise = reading('saUABETUME BL UN IA SA', 40);
    expect(await cyrillicEngine(noise, band, 1, factory('Трубочки молочная СКИДКА ДЛЯ КАРТЫ'))).not.toBeNull();
    expect(opened).toEqual(['ukr', CYRILLIC_OCR_LANGS.join('+')]);
    // A Latin band the Ukrainian model reads as Latin, and a confident English probe, stay as they are.
    opened.length = 0;
    expect(await cyrillicEngine(noise, band, 1, factory('SUMME 12,07 EUR Kaufland Filiale'))).toBeNull();
    // A row of stars over a German receipt's header ("********" read as "жжжжжжжж"): one letter, not eight.
    expect(await cyrillicEngine(noise, band, 1, factory('КЕМЕКЕНЕжжжжжжжж402190211-3006966ШОМе.:'))).toBeNull();
    // A German receipt's capitals and lower-case as the Ukrainian model reads them: look-alikes, no Cyrillic.
    expect(await cyrillicEngine(noise, band, 1, factory('ВІО НОМІС КІМОЕК НАКІВО Кгбпипо Огіоїпа Ргетіцт'))).toBeNull();
    expect(await cyrillicEngine(reading('Rechnung Datum Summe MwSt', 88), band, 1, factory('ИТОГО'))).toBeNull();
    expect(opened).toEqual(['ukr', 'ukr', 'ukr']);
  });

  it('is read again in Chinese when the Japanese reading shows Han characters but no kana', async () => {
    const zhPage = reading('增值税电子普通发票 价税合计 (小写) ¥52.70 销售方 名称: 天津瑞佳讯贸易有限公司', 88);
    const opened: string[] = [];
    const chinese = { recognize: async () => zhPage, terminate: async () => {} };
    const factory = async (langs: readonly string[]) => {
      opened.push(langs.join('+'));
      return chinese as OcrEngine;
    };
    const r = await chineseReading(zhPage, (e) => e.recognize(new Uint8Array(), 1), factory);
    expect(r?.engine).toBe(chinese);
    expect(opened).toEqual(['chi_sim+eng']);
    // A Japanese page (kana among the kanji) keeps its reading.
    expect(
      await chineseReading(
        reading('請求書 株式会社 御中 下記の通りご請求申し上げます', 90),
        async () => zhPage,
        factory,
      ),
    ).toBeNull();
    expect(opened).toEqual(['chi_sim+eng']);
  });

  it('stays as it is when the Japanese model finds no Japanese either (a faint Latin receipt)', async () => {
    const e = engines(reading('SUMME 12,07 EUR', 40));
    expect(await cjkEngine(reading('5UMME 12,07 EUR', 40), e.band, 1, e.factory)).toBeNull();
    // No Han character at all: the Chinese model is not even loaded.
    expect(e.opened).toEqual(['jpn']);
    // The Chinese model's odd Han character among Latin words read with confidence is no Chinese title either.
    const f = engines(reading('SUMME 十 12,07 中 EUR 和', 40), reading('Bonkopie 十 Hannover EUR', 90));
    expect(await cjkEngine(reading('5UMME 12,07 EUR', 40), f.band, 1, f.factory)).toBeNull();
  });

  it('is read in Chinese when the Chinese model reads a Chinese title on top (the Japanese one reads it poorly)', async () => {
    const e = engines(reading('肖 団 代 賠', 20), reading('增值税电子普通发票 发票代码 :012001800311', 92));
    expect(await cjkEngine(reading('HERS: 661619942171 12 1', 59), e.band, 1, e.factory)).toBe(e.both);
    expect(e.opened).toEqual(['jpn', 'chi_sim', 'chi_sim+eng']);
  });

  it('never loads the Japanese model for a confident probe or one that shows a language', async () => {
    for (const probe of [reading('4711 05.03.2024 12,00 34,50', 88), reading('Rechnung Datum Summe MwSt 12,00', 50)]) {
      const e = engines(reading('請求書 合計金額 円 御中 株式会社', 90));
      expect(await cjkEngine(probe, e.band, 1, e.factory)).toBeNull();
      expect(e.opened).toEqual([]);
      expect(e.bands()).toBe(0);
    }
  });
});

describe('a page whose probe cannot tell the language', () => {
  const reading = (text: string, confidence = 90): OcrPage => ({
    words: text.split(' ').map((t, i) => ({ text: t, x0: i, x1: i + 1, y0: 0, y1: 1, page: 1, confidence })),
    width: 100,
    height: 10,
    confidence,
  });
  // Engines that answer with a fixed reading and count their passes (a pass over a page costs seconds).
  const engine = (text: string, confidence = 90) => {
    const e = {
      passes: 0,
      recognize: async () => {
        e.passes++;
        return reading(text, confidence);
      },
      terminate: async () => {},
    };
    return e;
  };
  const undecided = reading('4711 05.03.2024 12,00');
  const opened: string[] = [];
  const factory = (byLangs: Record<string, ReturnType<typeof engine>>) => async (langs: readonly string[]) => {
    opened.push(langs.join('+'));
    return byLangs[langs.join('+')] as OcrEngine;
  };
  // The full reading of a page (no fixed engine) after the given probe, English being the probe's engine.
  const readUndecided = (
    probe: OcrPage,
    english: OcrEngine,
    mode: UndecidedLanguage,
    engineFor: (langs: readonly string[]) => Promise<OcrEngine>,
  ) => readInPageLanguage(new Uint8Array(), 1, probe, null, english, mode, engineFor);

  it('is read in English once, and kept when the whole page reads as English or still tells nothing', async () => {
    for (const text of ['Invoice number 12 Invoice date Total due', '4711 05.03.2024 12,00 34,50']) {
      opened.length = 0;
      const english = engine(text);
      const r = await readUndecided(undecided, english, 'english-first', factory({}));
      expect(r.first.words.map((w) => w.text).join(' ')).toBe(text);
      expect(english.passes).toBe(1);
      expect(opened).toEqual([]); // no seven-language pass
    }
  });

  it('is read again in the language the English reading shows, keeping the better of the two', async () => {
    opened.length = 0;
    const english = engine('Rechnung Nr. 4711 Datum 05.03.2024 Summe netto MwSt', 70);
    const german = engine('Rechnung Nr. 4711 Datum 05.03.2024 Summe netto MwSt Größe', 92);
    const r = await readUndecided(undecided, english, 'english-first', factory({ 'deu+eng': german }));
    expect(opened).toEqual(['deu+eng']);
    expect(r.engine).toBe(german);
    expect(r.first.confidence).toBe(92);
    const poor = engine('R e c h', 20);
    const kept = await readUndecided(undecided, english, 'english-first', factory({ 'deu+eng': poor }));
    expect(kept.engine).toBe(english);
  });

  it('is read with all seven models at once where the caller asks so (invoices and receipts)', async () => {
    opened.length = 0;
    const english = engine('Invoice number 12 Invoice date Total due');
    const all = engine('Rechnung');
    const r = await readUndecided(undecided, english, 'all-languages', factory({ [DEFAULT_OCR_LANGS.join('+')]: all }));
    expect(opened).toEqual([DEFAULT_OCR_LANGS.join('+')]);
    expect(english.passes).toBe(0);
    expect(r.engine).toBe(all);
  });

  it('after all seven, a page whose words show another language (Vietnamese) is read again with that model', async () => {
    opened.length = 0;
    const english = engine('x');
    // The seven Latin models rate their misreading of the tone marks a little higher than the right model does.
    const all = engine('MINIMART ANAN HOA BONBAN HANG Téng câng 127,000 Tién khâch tra Thu ngán Xin cám on', 90);
    const vietnamese = engine('MINIMART ANAN HÓA ĐƠN BÁN HÀNG Tổng cộng 127,000 Tiền khách trả Thu ngân cảm ơn', 88);
    const r = await readUndecided(
      undecided,
      english,
      'all-languages',
      factory({ [DEFAULT_OCR_LANGS.join('+')]: all, 'vie+eng': vietnamese }),
    );
    expect(opened).toEqual([DEFAULT_OCR_LANGS.join('+'), 'vie+eng']);
    expect(r.engine).toBe(vietnamese);
    // A reading in the page's language that is clearly worse is not kept; a page in one of the seven is read once.
    opened.length = 0;
    const poor = engine('HÓA ĐƠN BÁN HÀNG', 40);
    const kept = await readUndecided(
      undecided,
      english,
      'all-languages',
      factory({ [DEFAULT_OCR_LANGS.join('+')]: all, 'vie+eng': poor }),
    );
    expect(kept.engine).toBe(all);
    opened.length = 0;
    const german = engine('Rechnung Nr. 4711 Datum Summe netto MwSt', 90);
    await readUndecided(undecided, english, 'all-languages', factory({ [DEFAULT_OCR_LANGS.join('+')]: german }));
    expect(opened).toEqual([DEFAULT_OCR_LANGS.join('+')]);
  });

  it('a probe that already tells the language goes straight to that model', async () => {
    opened.length = 0;
    const english = engine('x');
    const french = engine('Facture');
    const probe = reading('Facture n° 12 du 05/03/2024 Montant TVA client');
    const r = await readUndecided(probe, english, 'english-first', factory({ 'fra+eng': french }));
    expect(opened).toEqual(['fra+eng']);
    expect(english.passes).toBe(0);
    expect(r.engine).toBe(french);
  });
});

describe('a weak reading is read once more', () => {
  const reading = (confidences: number[]) => ({
    words: confidences.map((c, i) => ({ text: 'Summe', x0: i, x1: i + 1, y0: 0, y1: 1, page: 1, confidence: c })),
    width: 100,
    height: 10,
    confidence: confidences.reduce((a, b) => a + b, 0) / Math.max(confidences.length, 1),
  });
  it.each([
    ['nothing read', [], true],
    ['few confident words', [90, 90, 90, 90, 90, 30], true],
    ['low mean confidence', [...Array(12).fill(95), ...Array(20).fill(30)], true],
    ['a good page', Array(40).fill(88), false],
  ])('%s', (_, confidences, weak) => {
    expect(weakReading(reading(confidences as number[]))).toBe(weak);
  });
});

afterAll(async () => {
  await shutdownExtraction();
});

// OCR costs ~1-2 s per page, so this file keeps to one scan: skewed, noisy, upside down, as a JPEG.
describe('OCR of a scanned invoice', () => {
  it('reads the fields of an upside-down, skewed, noisy JPEG', { timeout: 60_000 }, async () => {
    let seed = 777;
    let inv = generateInvoice(seed, 'de', 'classic');
    while (inv.pages > 1) inv = generateInvoice(++seed, 'de', 'classic');
    const jpeg = await renderScan(inv, {
      dpi: 200,
      skewDeg: 1.5,
      quarterTurns: 2,
      noise: 0.003,
      blur: false,
      format: 'jpeg',
      seed,
    });
    expect(inspectImage(jpeg)).toEqual({ ok: true, kind: 'jpeg', width: 1654, height: 2339 });
    const r = await extractInvoiceFields({ bytes: jpeg, filename: 'scan.jpg' });
    expect(r.errors).toEqual([]);
    expect(r.meta.kind).toBe('ocr');
    expect(r.fields.amount?.source).toBe('ocr');
    // An OCR reading counts for less than the same rule on a text layer (OCR_CONFIDENCE_FACTOR).
    for (const info of Object.values(r.fields)) expect(info.confidence).toBeLessThanOrEqual(OCR_CONFIDENCE_FACTOR);
    expect(r.warnings.map((w) => w.code)).toContain('ocr_rotated');
    const got = publicFields(r);
    expect({ amount: got.amount, currency: got.currency, invoice_number: got.invoice_number }).toEqual({
      amount: inv.truth.amount,
      currency: inv.truth.currency,
      invoice_number: inv.truth.invoice_number,
    });
    expect(got.invoice_date).toBe(inv.truth.invoice_date);
  });
});

describe('OCR of a PDF without a text layer', () => {
  it('renders the page and reads it', { timeout: 60_000 }, async () => {
    let seed = 4242;
    let inv = generateInvoice(seed, 'en', 'classic');
    while (inv.pages > 1) inv = generateInvoice(++seed, 'en', 'classic');
    const png = await renderScan(inv, {
      dpi: 150,
      skewDeg: 0.5,
      quarterTurns: 0,
      noise: 0.001,
      blur: false,
      format: 'png',
      seed,
    });
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    const img = await doc.embedPng(png);
    doc.addPage([595, 842]).drawImage(img, { x: 0, y: 0, width: 595, height: 842 });
    const r = await extractInvoiceFields({ bytes: await doc.save(), filename: 'scan.pdf' });
    expect(r.errors).toEqual([]);
    expect(r.meta.kind).toBe('ocr');
    expect(r.amount).toBe(inv.truth.amount);
    expect(r.invoice_number).toBe(inv.truth.invoice_number);
  });
});

describe('OCR of a phone photo', () => {
  it('a 27-megapixel photo of a sheet at an angle is straightened, cropped and read within the sandbox limits', {
    timeout: 300_000,
  }, async () => {
    let seed = 860_000;
    let inv = generateInvoice(seed++, 'en');
    while (inv.pages > 1) inv = generateInvoice(seed++, 'en');
    const photo = await renderPhoto(inv, { seed: seed * 13, background: 'desk' });
    // Up to a phone camera's size: 4500 × 6000 (the sandbox child decodes it, then works on at most 3200 px).
    const { createCanvas, loadImage } = await import('@napi-rs/canvas');
    const img = await loadImage(Buffer.from(photo));
    const big = createCanvas(4500, 6000);
    big.getContext('2d').drawImage(img, 0, 0, 4500, 6000);
    const jpeg = new Uint8Array(await big.encode('jpeg', 85));
    expect(inspectImage(jpeg)).toEqual({ ok: true, kind: 'jpeg', width: 4500, height: 6000 });
    // A generous document time limit: this test is about memory and accuracy, not speed on a busy machine.
    const r = await extractInvoiceFields({ bytes: jpeg, filename: 'photo.jpg' }, { limits: { timeoutMs: 240_000 } });
    expect(r.errors).toEqual([]);
    expect(r.meta.kind).toBe('ocr');
    const got = publicFields(r);
    expect({ amount: got.amount, invoice_number: got.invoice_number }).toEqual({
      amount: inv.truth.amount,
      invoice_number: inv.truth.invoice_number,
    });
  });
});
