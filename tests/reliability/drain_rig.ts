/**
 * Rig for the shutdown tests: a real `main.ts` process serving the catalog's providers, which
 * point at a paced fake upstream on loopback (it speaks the real wires, and holds streams for as
 * long as a test needs), with its ledger in a SQLite file of a temp dir; streams opened on every
 * client route; the ledger read back once the process is gone.
 * @module
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openSqliteStore } from "../../store/sqlite/sqlite_store.ts";
import { type GatewayProcess, startGateway } from "../governance/gateway_process.ts";
import { type Pace, type PacedUpstream, startPacedUpstream } from "../governance/paced_upstream.ts";
import {
  bodyFor,
  PATH,
  readStream,
  type Route,
  ROUTES,
  type StreamRead,
  until,
} from "../governance/gov_kit.ts";
import { upstreamEnv } from "../harness.ts";

/** A gateway process and its upstream. */
export interface DrainRig {
  gateway: GatewayProcess;
  upstream: PacedUpstream;
  dbPath: string;
  key: string;
  /** Opens `count` streams over {@link ROUTES} in turn (each protocol, passthrough and
   * translated) and resolves once the upstream is streaming every one of them. */
  open(count: number, text: string): Promise<OpenStream[]>;
  /** The process's exit, with how long it took since `since` (performance.now()). */
  exited(since: number): Promise<{ code: number; ms: number }>;
  /** The ledger rows, read from the file (once the process is gone). */
  rows(): LedgerRow[];
  close(): Promise<void>;
}

/** A stream the test opened, read to its end as its client would. */
export interface OpenStream {
  route: Route;
  /** How it ended; `broken` holds the error when the connection failed under the reader. */
  read: Promise<StreamRead | { broken: string }>;
}

/** The ledger fields these tests look at. */
export interface LedgerRow {
  route: string;
  status: number;
  outcome: string;
}

/** Starts the upstream (`pace`) and a gateway on it with GATEHOUSE_DRAIN_SECONDS=`drainSeconds`. */
export async function startDrainRig(pace: Partial<Pace>, drainSeconds: number): Promise<DrainRig> {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse-drain-" });
  const dbPath = join(dir, "gatehouse.db");
  const seed = openSqliteStore(dbPath);
  const { key } = await seed.createKey("drain");
  await seed.close();
  const upstream = startPacedUpstream(pace);
  let gateway: GatewayProcess;
  try {
    gateway = await startGateway(dbPath, {
      demo: false,
      env: { ...upstreamEnv(upstream.url), GATEHOUSE_DRAIN_SECONDS: String(drainSeconds) },
    });
  } catch (error) {
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
    throw error;
  }
  return {
    gateway,
    upstream,
    dbPath,
    key,
    async open(count, text) {
      const before = upstream.streams;
      const opened = await Promise.all(Array.from({ length: count }, async (_, i) => {
        const route = ROUTES[i % ROUTES.length]!;
        const response = await fetch(`${gateway.url}${PATH[route.wire]}`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(bodyFor(route.wire, route.model, { stream: true, text })),
        });
        if (response.status !== 200) {
          throw new Error(`${route.name}: HTTP ${response.status} ${await response.text()}`);
        }
        const read = readStream(route.wire, response).catch((error) => ({
          broken: String(error),
        }));
        return { route, read };
      }));
      if (!await until(() => upstream.streams - before === count, 10_000)) {
        throw new Error(`${upstream.streams - before} of ${count} streams reached the upstream`);
      }
      return opened;
    },
    async exited(since) {
      const status = await gateway.child.status;
      return { code: status.code, ms: performance.now() - since };
    },
    rows() {
      const db = new DatabaseSync(dbPath, { readOnly: true });
      try {
        return db.prepare("SELECT route, status, outcome FROM usage ORDER BY id").all()
          .map((row) => ({
            route: String(row.route),
            status: Number(row.status),
            outcome: String(row.outcome),
          }));
      } finally {
        db.close();
      }
    },
    async close() {
      await gateway.stop(1_000);
      await upstream.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Whether a new connection to `url` is refused, or its `/readyz` answers 503 (once). */
export async function refusesNewWork(url: string): Promise<boolean> {
  // A client of its own: a new connection, not one the pool kept from before the signal.
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  try {
    const response = await fetch(`${url}/readyz`, { client });
    await response.body?.cancel();
    return response.status === 503;
  } catch {
    return true;
  } finally {
    client.close();
  }
}
