/**
 * The bench's command line: which scenarios and targets, how long, how many rounds, or a profile.
 * @module
 */
import { type Scenario, SCENARIOS, type Target } from "./scenarios.ts";
import { checkOptions } from "./options.ts";

/** The `--only` value that runs the scale-out bench instead (`scale/main.ts`, issue #17). */
export const SCALE_GROUP = "scale";

/** Whether the arguments ask for the scale-out bench (`--only=scale`). */
export function isScaleRun(args: readonly string[]): boolean {
  return args.includes(`--only=${SCALE_GROUP}`);
}

/** Whether the arguments ask for the many-streams bench (`--only=streams`, issue #19). */
export function isStreamsRun(args: readonly string[]): boolean {
  return args.includes("--only=streams");
}

/** The `--only` value that runs the observability-cost bench (`observe/main.ts`, issue #18). */
export const OBSERVE_GROUP = "observe";

/** Whether the arguments ask for the observability-cost bench (`--only=observe`). */
export function isObserveRun(args: readonly string[]): boolean {
  return args.includes(`--only=${OBSERVE_GROUP}`);
}

/** The `--only` group that runs just the policy-cost comparison (issue #15). */
export const POLICIES_GROUP = "policies";
/** The scenarios the comparison covers. */
export const POLICY_SCENARIOS = [
  "chat-json",
  "chat-stream",
  "messages-stream",
  "responses-stream",
] as const;
/** The targets the comparison needs: direct for the added latency, then none vs all. */
export const POLICY_TARGETS: Target[] = ["direct", "gatehouse", "policied"];
/** Rounds of `--only=policies` unless `--rounds` says otherwise (1 for every other run). */
export const POLICY_ROUNDS = 3;

/** Rounds of `--compare` when `--rounds` is not given. */
export const COMPARE_ROUNDS = 8;

/** Rounds of `--instructions` when `--rounds` is not given. */
export const INSTRUCTION_ROUNDS = 4;

/** Run settings. */
export interface Settings {
  /** The load generator: `wrk` (external, the default) or `fetch` (in the bench's own runtime;
   * `--generator=fetch`, or when wrk is not installed). */
  generator: "wrk" | "fetch";
  /** Seconds per measurement (per round). */
  seconds: number;
  /** Seconds of warm-up per scenario and target, all of them before the first measurement. */
  warmupSeconds: number;
  /** Seconds each scenario's loads run again right before its own measurement. */
  rewarmSeconds: number;
  /** Times every scenario is measured over; each round is reported, then all pooled. */
  rounds: number;
  /** Most requests per measurement. */
  maxRequests: number;
  scenarios: Scenario[];
  /** Profile this scenario through gatehouse instead of measuring. */
  profile: Scenario | null;
  /** Trace the garbage collector of the proxy and gatehouse on this scenario instead
   * (`--gc=<scenario>`, `gc.ts`); takes the profile's concurrency and target. */
  gc: Scenario | null;
  /** Sample the allocations of gatehouse on this scenario instead (`--allocations=<scenario>`,
   * `profile.ts`); takes the profile's concurrency and target. */
  allocations: Scenario | null;
  /** Compare this checkout with gatehouse at this commit instead (`--compare=<rev>`,
   * `compare.ts`), on {@link compareScenario}; takes the profile's concurrency and target. */
  compare: string | null;
  /** The scenario compared: the one `--only` names, else chat JSON. */
  compareScenario: Scenario;
  /** Count gatehouse's instructions per request on this scenario instead
   * (`--instructions=<scenario>`, `instructions.ts`); takes the profile's concurrency and
   * target, `--rounds` and `--compare`. */
  instructions: Scenario | null;
  /** Requests per round of `--instructions` (`--requests`, default 3,000). */
  requests: number;
  /** Concurrency of the profiled load. */
  profileConcurrency: number;
  /** Which gatehouse key the profile uses: `gatehouse` (no policy) or `policied`; `proxy` counts
   * the minimal proxy (`--instructions` only). */
  profileTarget: Target;
}

/** The scenarios `--only` names (comma-separated ids, or `policies`: the comparison's scenarios
 * with its targets only), plus the baselines translated ones need. A scenario named by its own
 * id keeps all its targets. */
export function selectScenarios(only: string[] | undefined): Scenario[] {
  if (only === undefined) return SCENARIOS;
  const known = [...SCENARIOS.map((s) => s.id), POLICIES_GROUP].join(", ");
  const unknown = only.filter((id) => id !== POLICIES_GROUP && !SCENARIOS.some((s) => s.id === id));
  if (unknown.length > 0) {
    throw new Error(`unknown scenario ${unknown.join(", ")}; known: ${known}`);
  }
  const full = new Set(only);
  for (const id of only) {
    const baseline = SCENARIOS.find((s) => s.id === id)?.baseline;
    if (baseline) full.add(baseline);
  }
  const policies = only.includes(POLICIES_GROUP);
  const policyIds: readonly string[] = POLICY_SCENARIOS;
  return SCENARIOS.flatMap((s) => {
    if (full.has(s.id)) return [s];
    if (policies && policyIds.includes(s.id)) {
      return [{ ...s, targets: s.targets.filter((t) => POLICY_TARGETS.includes(t)) }];
    }
    return [];
  });
}

/** The options of the main run and of the runs on one scenario (`--profile`, `--compare`, ...). */
const MAIN_OPTIONS = [
  "seconds",
  "warmup",
  "only",
  "rounds",
  "profile",
  "allocations",
  "gc",
  "compare",
  "concurrency",
  "target",
  "generator",
  "instructions",
  "requests",
];

/** Reads the settings from the command line; throws a message for a bad value. */
export function parseSettings(args: string[]): Settings {
  checkOptions(args, MAIN_OPTIONS, "deno task bench");
  const value = (name: string) =>
    args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const seconds = Number(value("seconds") ?? 2.5);
  if (!(seconds > 0)) throw new Error(`--seconds must be a positive number of seconds`);
  const known = SCENARIOS.map((s) => s.id).join(", ");
  const scenarioNamed = (option: string) => {
    const id = value(option);
    if (id === undefined) return null;
    const found = SCENARIOS.find((s) => s.id === id);
    if (found === undefined) throw new Error(`unknown scenario ${id}; known: ${known}`);
    return found;
  };
  const profile = scenarioNamed("profile");
  const gc = scenarioNamed("gc");
  const allocations = scenarioNamed("allocations");
  const instructions = scenarioNamed("instructions");
  const requests = Number(value("requests") ?? 3000);
  if (!Number.isInteger(requests) || requests < 1) {
    throw new Error(`--requests must be a whole number of at least 1`);
  }
  const profileConcurrency = Number(value("concurrency") ?? 32);
  if (!Number.isInteger(profileConcurrency) || profileConcurrency < 1) {
    throw new Error(`--concurrency must be a whole number of at least 1`);
  }
  const profileTarget = (value("target") ?? "gatehouse") as Target;
  // The minimal proxy's count is the reference gatehouse's are read against.
  const countsProxy = profileTarget === "proxy" && value("instructions") !== undefined;
  if (profileTarget !== "gatehouse" && profileTarget !== "policied" && !countsProxy) {
    throw new Error(`--target must be gatehouse or policied (or proxy with --instructions)`);
  }
  const only = value("only")?.split(",");
  const scenarios = selectScenarios(only);
  const policiesOnly = only !== undefined && only.every((id) => id === POLICIES_GROUP);
  const compare = value("compare") ?? null;
  if (compare === "") throw new Error(`--compare needs a commit: --compare=main~3`);
  const rounds = Number(
    value("rounds") ??
      (policiesOnly
        ? POLICY_ROUNDS
        : instructions !== null
        ? INSTRUCTION_ROUNDS
        : compare !== null
        ? COMPARE_ROUNDS
        : 1),
  );
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new Error(`--rounds must be a whole number of at least 1`);
  }
  const warmupSeconds = Number(value("warmup") ?? Math.min(2, seconds));
  if (!(warmupSeconds >= 0)) throw new Error(`--warmup must be a number of seconds, 0 or more`);
  const generator = value("generator") ?? "wrk";
  if (generator !== "wrk" && generator !== "fetch") {
    throw new Error(`--generator must be wrk or fetch`);
  }
  return {
    generator,
    seconds,
    warmupSeconds,
    rewarmSeconds: Math.min(1, warmupSeconds),
    rounds,
    maxRequests: 200_000,
    scenarios,
    profile,
    gc,
    allocations,
    instructions,
    requests,
    compare,
    compareScenario: only?.length === 1 && only[0] !== POLICIES_GROUP
      ? SCENARIOS.find((s) => s.id === only[0])!
      : SCENARIOS.find((s) => s.id === "chat-json")!,
    profileConcurrency,
    profileTarget,
  };
}
