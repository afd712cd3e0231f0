import type { DocumentType } from '../src/extraction/extraction.types';
import { extractInvoiceFields } from '../src/extraction/index';
import { type GeneratedInvoice, generateInvoice } from './invoice.generator';
import { renderPdf } from './invoice.renderers';
import { type GenLang, VOCAB } from './vocabulary';

/**
 * Generated documents of other kinds for the document-type rules: an invoice of the generator whose title is swapped
 * for an order confirmation's, a delivery note's or a payment reminder's, in the seven languages. Everything else on
 * the page stays an invoice's (its number and date labels, its totals): the trap that the words of an invoice on a
 * reminder or an order confirmation must not make it one. The titles here are written apart from the rules' own list
 * (Romanian without diacritics: the PDF's standard font has none of them, like the generator's own Romanian).
 */

const TITLES: Record<Exclude<Kind, 'invoice'>, Record<GenLang, string[]>> = {
  order_confirmation: {
    en: ['ORDER CONFIRMATION', 'Order Acknowledgement'],
    de: ['AUFTRAGSBESTÄTIGUNG', 'Bestellbestätigung'],
    fr: ['CONFIRMATION DE COMMANDE', 'Confirmation de commande'],
    it: ["CONFERMA D'ORDINE", 'Conferma ordine'],
    es: ['CONFIRMACIÓN DE PEDIDO', 'Confirmación del pedido'],
    ro: ['CONFIRMARE COMANDA', 'Confirmarea comenzii'],
    nl: ['ORDERBEVESTIGING', 'Opdrachtbevestiging'],
  },
  delivery_note: {
    en: ['DELIVERY NOTE', 'Packing Slip'],
    de: ['LIEFERSCHEIN', 'Lieferschein'],
    fr: ['BON DE LIVRAISON', 'Bon de livraison'],
    it: ['DOCUMENTO DI TRASPORTO', 'Bolla di consegna'],
    es: ['ALBARÁN', 'Albarán de entrega'],
    ro: ['AVIZ DE INSOTIRE A MARFII', 'Aviz de insotire'],
    nl: ['PAKBON', 'Leveringsbon'],
  },
  payment_reminder: {
    en: ['PAYMENT REMINDER', 'Reminder'],
    de: ['ZAHLUNGSERINNERUNG', '1. Mahnung'],
    fr: ['RELANCE', 'Rappel de paiement'],
    it: ['SOLLECITO DI PAGAMENTO', 'Sollecito'],
    es: ['RECORDATORIO DE PAGO', 'Recordatorio de pago'],
    ro: ['SOMATIE DE PLATA', 'Notificare de plata'],
    nl: ['BETALINGSHERINNERING', 'Aanmaning'],
  },
};

type Kind = 'invoice' | 'order_confirmation' | 'delivery_note' | 'payment_reminder';
const KINDS: Kind[] = ['invoice', 'order_confirmation', 'delivery_note', 'payment_reminder'];
const LANGS: GenLang[] = ['en', 'de', 'fr', 'it', 'es', 'ro', 'nl'];

/**
 * The invoice with its title (the bold heading and the footer line) replaced by `title`. A heading set flush right
 * is printed smaller when the new title is longer, so that it does not run into the vendor's name on its left.
 */
function retitle(inv: GeneratedInvoice, title: string): GeneratedInvoice {
  const titles = VOCAB[inv.lang].title;
  const runs = inv.runs.map((run) => {
    for (const t of titles) {
      if (run.bold && (run.text === t || run.text.startsWith(`${t} `))) {
        const size =
          run.align === 'right' ? Math.max(11, Math.min(run.size, (run.size * t.length) / title.length)) : run.size;
        return { ...run, size, text: title + run.text.slice(t.length) };
      }
      if (run.text.includes(` - ${t} `)) return { ...run, text: run.text.replace(` - ${t} `, ` - ${title} `) };
    }
    return run;
  });
  return { ...inv, runs };
}

export interface DocumentTypeCase {
  id: string;
  want: DocumentType;
  got: DocumentType | null;
}

export async function runDocumentTypeEval(seeds = 3): Promise<DocumentTypeCase[]> {
  const cases: DocumentTypeCase[] = [];
  for (const [li, lang] of LANGS.entries()) {
    for (const [ki, kind] of KINDS.entries()) {
      for (let s = 0; s < seeds; s++) {
        const seed = 70_000 + li * 1000 + ki * 100 + s;
        const inv = generateInvoice(seed, lang);
        const doc = kind === 'invoice' ? inv : retitle(inv, TITLES[kind][lang][s % 2]!);
        const r = await extractInvoiceFields({ bytes: await renderPdf(doc), filename: `${kind}.pdf` }, { ocr: false });
        cases.push({ id: `${lang}-${kind}-${seed}-${inv.layout}`, want: kind, got: r.document_type });
      }
    }
  }
  return cases;
}

export function reportDocumentTypes(cases: DocumentTypeCase[], verbose: boolean): string[] {
  const right = cases.filter((c) => c.got === c.want).length;
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '  -  ');
  const lines = [
    `${'document types (generated)'.padEnd(34)} n=${String(cases.length).padEnd(4)} right ${pct(right, cases.length)}`,
  ];
  for (const kind of KINDS) {
    const part = cases.filter((c) => c.want === kind);
    lines.push(
      `  ${kind.padEnd(32)} n=${String(part.length).padEnd(4)} right ${pct(part.filter((c) => c.got === kind).length, part.length)}`,
    );
  }
  if (verbose)
    for (const c of cases.filter((x) => x.got !== x.want)) lines.push(`    ${c.id}: got ${c.got} want ${c.want}`);
  return lines;
}
