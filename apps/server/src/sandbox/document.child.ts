/** Entry of the document sandbox's child processes (see document-sandbox.ts). */
import { documentTasks } from './document.tasks';
import { serveSandboxTasks } from './sandbox.child';

serveSandboxTasks(documentTasks);
