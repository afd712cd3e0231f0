// Lists every quoted string of the specification (../shared/SPEC.md, relative to the repository root) and says
// which ones appear nowhere in apps/ and packages/, separately for product code and for tests. A string with
// placeholders ('{email}', 'N', '...') counts as present when each of its literal fragments is present; white
// space is collapsed, so a JSX text broken over lines still counts.
// Usage: node scripts/spec-strings.mjs [--markdown]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const specPath = path.resolve(root, '../shared/SPEC.md');
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', '.vite', 'test-results', 'playwright-report']);
const SOURCE_EXT = /\.(ts|tsx|js|mjs|cjs|json|html|css)$/;

/** Single-quoted strings that do not start or end inside a word, so "user's" is not a quote. */
export function quotedStrings(markdown) {
  const found = [];
  for (const [lineIndex, line] of markdown.split('\n').entries()) {
    for (const match of line.matchAll(/(?<![\p{L}\p{N}])'([^'\n]+?)'(?![\p{L}\p{N}])/gu)) {
      found.push({ text: match[1], line: lineIndex + 1 });
    }
  }
  return found;
}

/** The literal pieces of a spec string: placeholders and ellipses split it. */
export function fragments(text) {
  if (text.trim().length < 3) return [text];
  return text
    .split(/\{[^}]*\}|\.\.\.|…|\bN\b|\bM\b|\bn\b(?=\/)/)
    .map((part) => part.trim())
    .filter((part) => part.length >= 3);
}

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const full = path.join(dir, name);
    const stat = statSync(full);
    if (stat.isDirectory()) walk(full, out);
    else if (SOURCE_EXT.test(name)) out.push(full);
  }
  return out;
}

const isTest = (file) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(file) || file.includes(`${path.sep}test${path.sep}`);

export function report(specText, files) {
  const sources = files.filter((f) => !isTest(f.path)).map((f) => f.text);
  const tests = files.filter((f) => isTest(f.path)).map((f) => f.text);
  const seen = new Map();
  for (const quote of quotedStrings(specText)) {
    if (!seen.has(quote.text)) seen.set(quote.text, { ...quote, inCode: false, inTests: false });
  }
  for (const entry of seen.values()) {
    const parts = fragments(entry.text.replace(/\s+/g, ' '));
    const present = (texts) => parts.length > 0 && parts.every((part) => texts.some((t) => t.includes(part)));
    entry.inCode = present(sources);
    entry.inTests = present(tests);
  }
  return [...seen.values()];
}

function main() {
  if (!existsSync(specPath)) {
    console.log(`spec-strings: ${path.relative(root, specPath)} not found; nothing to check.`);
    return;
  }
  const files = ['apps', 'packages', 'e2e']
    .map((dir) => path.join(root, dir))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => walk(dir, []))
    .filter((file) => !file.startsWith(path.join(root, 'e2e')) || isTest(file))
    .map((file) => ({ path: file, text: readFileSync(file, 'utf8').replace(/\s+/g, ' ') }));
  const entries = report(readFileSync(specPath, 'utf8'), files);
  const missing = entries.filter((e) => !e.inCode);
  const untested = entries.filter((e) => e.inCode && !e.inTests);
  const markdown = process.argv.includes('--markdown');
  const bullet = (e) => (markdown ? `- SPEC.md:${e.line} '${e.text}'` : `  SPEC.md:${e.line}  '${e.text}'`);
  console.log(
    `${entries.length} quoted strings in the spec; ${entries.length - missing.length} in apps/ or packages/, ` +
      `${missing.length} nowhere; ${untested.length} in code but in no test.`,
  );
  console.log(markdown ? '\nNowhere in apps/ or packages/:\n' : '\nNowhere in apps/ or packages/:');
  for (const e of missing) console.log(bullet(e));
  if (missing.length === 0) console.log(markdown ? '- (none)' : '  (none)');
  console.log(markdown ? '\nIn code but in no test (apps/**, e2e/):\n' : '\nIn code but in no test (apps/**, e2e/):');
  for (const e of untested) console.log(bullet(e));
  if (untested.length === 0) console.log(markdown ? '- (none)' : '  (none)');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
