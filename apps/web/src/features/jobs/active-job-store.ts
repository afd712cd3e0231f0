import { readStorage, STORAGE_KEYS, writeStorage } from '../../lib/storage-keys';

/**
 * The active job id of spec §4, kept in localStorage so it survives reloads. Screens that start a job call
 * setActiveJobId; the shell's watcher subscribes and polls it.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function getActiveJobId(): string | null {
  return readStorage(STORAGE_KEYS.activeJobId);
}

export function setActiveJobId(id: string | null): void {
  writeStorage(STORAGE_KEYS.activeJobId, id);
  for (const listener of listeners) listener();
}

export function subscribeActiveJobId(listener: Listener): () => void {
  listeners.add(listener);
  // Another tab starting or clearing a job updates this one too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.activeJobId || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
