/**
 * The listeners a store tells after each committed key or team change it made
 * (`Store.onKeysChanged`): used to publish the change to other instances.
 * @module
 */

/** A set of change listeners. */
export class KeysChangedListeners {
  readonly #listeners = new Set<() => void>();
  readonly #onError: (error: unknown) => void;

  /** `onError` hears a listener's throw, which never undoes or fails the change. */
  constructor(onError: (error: unknown) => void = (error) => console.error(error)) {
    this.#onError = onError;
  }

  /** Adds `listener`; returns its removal. */
  add(listener: () => void): () => void {
    // A wrapper per subscription, so the same function added twice is removed once per call.
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Calls every listener. */
  emit(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}
