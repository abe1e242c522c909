/**
 * Shared limits across worker threads: the main thread keeps one backend (`MemoryLimits`) and
 * serves it over a MessagePort per worker ({@link serveLimits}); each worker's governor uses a
 * {@link PortLimits}, which sends each call as a message with an id and resolves it with the
 * reply of the same id. Every message is plain data (structured clone).
 *
 * A worker that exits cannot release its holds: the main thread calls the handle's `close()`
 * (on the worker's `exit`/`error` event), which drops every hold the worker took (they are
 * tagged with the handle's owner id).
 * @module
 */
import type {
  AdmitCall,
  AdmitReply,
  FlowCall,
  FlowReply,
  LimitsBackend,
  ReleaseCall,
  RenewCall,
  ScopeId,
} from "./backend.ts";

type Method = "admit" | "release" | "flow" | "renew" | "forget";

interface Ask {
  id: number;
  method: Method;
  call: unknown;
}

type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** What {@link serveLimits} hands back. */
export interface ServedLimits {
  /** The id the worker's holds are tagged with. */
  readonly owner: string;
  /** Drops the worker's holds and closes the port (call when the worker exits). */
  close(): Promise<void>;
}

/** Answers the calls arriving on `port` with `backend`; see the module doc. */
export function serveLimits(
  port: MessagePort,
  backend: LimitsBackend,
  owner: string = crypto.randomUUID(),
): ServedLimits {
  const run = (method: Method, call: unknown): Promise<unknown> => {
    switch (method) {
      case "admit":
        // The call is this side's structured clone: tagged in place, not copied again.
        (call as AdmitCall).owner = owner;
        return backend.admit(call as AdmitCall);
      case "release":
        return backend.release(call as ReleaseCall);
      case "flow":
        return backend.flow(call as FlowCall);
      case "renew":
        return backend.renew(call as RenewCall);
      case "forget":
        return backend.forget(call as ScopeId[]);
    }
  };
  port.onmessage = (event: MessageEvent<Ask>) => {
    const { id, method, call } = event.data;
    run(method, call).then(
      (value) => port.postMessage({ id, ok: true, value } satisfies Answer),
      (error) => port.postMessage({ id, ok: false, error: String(error) } satisfies Answer),
    );
  };
  return {
    owner,
    async close() {
      port.onmessage = null;
      port.close();
      await backend.dropOwner?.(owner);
    },
  };
}

/** A backend on the other end of a MessagePort ({@link serveLimits}). */
export class PortLimits implements LimitsBackend {
  readonly #port: MessagePort;
  readonly #pending = new Map<number, PromiseWithResolvers<unknown>>();
  #next = 0;

  /** Calls go out on `port`. */
  constructor(port: MessagePort) {
    this.#port = port;
    port.onmessage = (event: MessageEvent<Answer>) => {
      const answer = event.data;
      const pending = this.#pending.get(answer.id);
      if (pending === undefined) return;
      this.#pending.delete(answer.id);
      if (answer.ok) pending.resolve(answer.value);
      else pending.reject(new Error(`limits backend: ${answer.error}`));
    };
  }

  /** See {@link LimitsBackend.admit}. */
  admit(call: AdmitCall): Promise<AdmitReply> {
    return this.#ask("admit", call) as Promise<AdmitReply>;
  }

  /** See {@link LimitsBackend.release}. */
  release(call: ReleaseCall): Promise<void> {
    return this.#ask("release", call) as Promise<void>;
  }

  /** See {@link LimitsBackend.flow}. */
  flow(call: FlowCall): Promise<FlowReply> {
    return this.#ask("flow", call) as Promise<FlowReply>;
  }

  /** See {@link LimitsBackend.renew}. */
  renew(call: RenewCall): Promise<void> {
    return this.#ask("renew", call) as Promise<void>;
  }

  /** See {@link LimitsBackend.forget}. */
  forget(scopes: ScopeId[]): Promise<void> {
    return this.#ask("forget", scopes) as Promise<void>;
  }

  /** Closes the port; calls still waiting are rejected. */
  close(): void {
    this.#port.onmessage = null;
    this.#port.close();
    for (const pending of this.#pending.values()) pending.reject(new Error("limits port closed"));
    this.#pending.clear();
  }

  #ask(method: Method, call: unknown): Promise<unknown> {
    const id = this.#next++;
    const pending = Promise.withResolvers<unknown>();
    this.#pending.set(id, pending);
    this.#port.postMessage({ id, method, call } satisfies Ask);
    return pending.promise;
  }
}
