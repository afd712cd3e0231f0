import { promises as fs } from 'node:fs';
import type { Command } from 'commander';
import type { AddedFile } from '../uploads/uploads.service';
import { loadRuntime } from './lazy';
import { printJson } from './output';

interface AddOptions {
  drive?: boolean;
  json?: boolean;
}

/**
 * `invoicebox add FILE...`: documents from this machine into the owner's Uploads source, through the same ingest as
 * an upload in the web app (the files are read where they are; nothing is copied or moved).
 */
export function registerAddCommand(program: Command): void {
  program
    .command('add')
    .description('add documents (PDF, JPEG, PNG, HEIC, e-invoice XML, .eml) to the owner’s invoices, each once')
    .argument('<files...>', 'the files to add')
    .option('--drive', 'then file the new invoices in the drive chosen in Settings')
    .option('--json', 'print one result per file as JSON on stdout')
    .action(async (paths: string[], options: AddOptions) => {
      const { loadConfig } = await import('../config');
      const config = loadConfig();
      const { createRuntime, createLogger } = await loadRuntime();
      const runtime = await createRuntime(config, createLogger('warn', process.stderr));
      let failed = false;
      try {
        const owner = await runtime.users.owner();
        if (!owner) {
          throw new Error('this Invoicebox has no owner yet: open the web app and create the owner account first');
        }
        const files: AddedFile[] = [];
        for (const file of paths) {
          const stat = await fs.stat(file).catch(() => null);
          if (!stat?.isFile()) {
            files.push({ name: file, size: 0, refused: { code: 'not_found', message: 'No such file' } });
          } else {
            files.push({ name: file, path: file, size: stat.size });
          }
        }
        const result = await runtime.uploads.add(owner.id, files, 'cli');
        const drive =
          options.drive && result.account_id
            ? await runtime.drive.upload(owner.id, { accountIds: [result.account_id] })
            : null;
        failed = result.files.some((f) => f.status === 'failed');
        if (options.json) printJson({ files: result.files, drive });
        else {
          for (const [index, f] of result.files.entries()) {
            console.log(`${paths[index]}: ${f.status}${f.message && f.message !== 'Added' ? ` (${f.message})` : ''}`);
          }
          if (drive) console.log(`Drive: ${drive.uploaded} uploaded, ${drive.linked} already there (${drive.drive})`);
        }
      } finally {
        // OCR workers keep the process alive; they exist only if an image or a scanned PDF was read.
        const { shutdownExtraction } = await import('../extraction/index');
        await shutdownExtraction();
        await runtime.close();
      }
      // A refused file is an error for scripts; what could be added is added.
      if (failed) process.exitCode = 1;
    });
}
