// The session's snapshot (state, cached messages, outbox, API key) kept in IndexedDB, so that a
// reload, online or not, starts where the last page stopped. One record: the current session.

const DATABASE = "confab";
const STORE = "session";
const KEY = "current";

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function transact<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const database = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = database.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    database.close();
  }
}

export async function loadSnapshot(): Promise<Uint8Array | undefined> {
  const value = await transact("readonly", (store) => store.get(KEY));
  return value instanceof Uint8Array ? value : undefined;
}

export function saveSnapshot(snapshot: Uint8Array): Promise<unknown> {
  return transact("readwrite", (store) => store.put(snapshot, KEY));
}

export function clearSnapshot(): Promise<unknown> {
  return transact("readwrite", (store) => store.delete(KEY));
}
