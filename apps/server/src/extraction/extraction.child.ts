/**
 * Entry of the document sandbox's child processes (see extraction.sandbox.ts): the tasks that read untrusted
 * documents, run where a crash or a memory blow-up costs one document.
 */
import { serveSandboxTasks } from '../sandbox/sandbox.child';
import { extractionTasks } from './extraction.tasks';

serveSandboxTasks(extractionTasks);
