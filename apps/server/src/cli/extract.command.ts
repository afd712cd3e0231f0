import type { Command } from 'commander';
import { exitWithError, printJson } from './output';

interface ExtractCommandOptions {
  json?: boolean;
  ocr: boolean;
  modelUrl?: string;
  modelName?: string;
  modelKey?: string;
  vision?: boolean;
}

export function registerExtractCommand(program: Command): void {
  program
    .command('extract')
    .description('read vendor, total, currency, invoice date and number from a PDF, PNG/JPG or e-invoice XML file')
    .argument('<file>', 'PDF, PNG, JPEG or UBL/CII XML file')
    .option(
      '--json',
      'print only {vendor, amount, currency, invoice_date, invoice_number, document_type} as JSON on stdout',
    )
    .option('--no-ocr', 'do not OCR images and pages without a text layer')
    .option('--model-url <url>', 'base URL of an OpenAI-compatible endpoint used where the rules are unsure')
    .option('--model-name <name>', 'model name for --model-url')
    .option('--model-key <key>', 'API key for --model-url')
    .option('--vision', 'send page images to the model when there is no text layer')
    .action(async (file: string, options: ExtractCommandOptions) => {
      // The file is read in the document sandbox, with the limits of the configuration (README). Its child starts
      // first, before the configuration is even loaded, and loads the readers while this process loads the rest (a
      // one-page PDF then takes about half a second); a configuration with other limits restarts it.
      const sandbox = await import('../sandbox/document-sandbox');
      await sandbox.configureDocumentSandbox({ processes: 1 });
      sandbox.prewarmDocumentSandbox();
      const { documentSettings, loadConfig } = await import('../config');
      let config: ReturnType<typeof loadConfig>;
      try {
        config = loadConfig();
      } catch (error) {
        await sandbox.closeDocumentSandbox();
        throw error;
      }
      const documents = documentSettings(config.documents);
      await sandbox.configureDocumentSandbox({ ...documents.sandbox, processes: 1 });
      const { extractFile, publicFields, shutdownExtraction } = await import('../extraction/index');
      const model =
        options.modelUrl && options.modelName
          ? {
              baseURL: options.modelUrl,
              apiKey: options.modelKey ?? 'none',
              model: options.modelName,
              vision: options.vision ?? false,
            }
          : // Without flags, the server's endpoint (EXTRACTION_MODEL_*), if the operator set one.
            config.extractionModel;
      let result: Awaited<ReturnType<typeof extractFile>>;
      try {
        result = await extractFile(file, { ocr: options.ocr, limits: documents.limits, ...(model ? { model } : {}) });
      } catch (error) {
        const code = (error as { code?: string }).code;
        exitWithError(new Error(code === 'ENOENT' ? `${file}: no such file` : `${file}: ${(error as Error).message}`));
      } finally {
        // The sandbox's process keeps this one alive; end it whatever happened.
        await shutdownExtraction();
      }
      const first = result.errors[0];
      if (first) exitWithError(new Error(`${file}: ${first.message} (${first.code})`));
      if (options.json) {
        printJson(publicFields(result));
        return;
      }
      const f = result.fields;
      const row = (label: string, value: unknown, key: keyof typeof f) =>
        `${label.padEnd(15)}${value === null ? '—' : String(value)}${f[key] ? `  (${f[key]!.source}, ${f[key]!.confidence.toFixed(2)})` : ''}`;
      console.log(`${file}  [${result.meta.kind}, ${result.meta.pages} page(s), ${result.meta.ms} ms]`);
      console.log(row('vendor', result.vendor, 'vendor'));
      console.log(row('amount', result.amount, 'amount'));
      console.log(row('currency', result.currency, 'currency'));
      console.log(row('invoice date', result.invoice_date, 'invoice_date'));
      console.log(row('invoice number', result.invoice_number, 'invoice_number'));
      console.log(`${'document type'.padEnd(15)}${result.document_type ?? '—'}`);
      for (const w of result.warnings) console.log(`note: ${w.message} (${w.code})`);
    });
}
