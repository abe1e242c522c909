/**
 * What `deno task bench --help` prints: every run of the bench and its options.
 * @module
 */

/** The bench's usage text. */
export const USAGE = `deno task bench [options]: gatehouse against direct-to-upstream and a minimal
proxy, load by wrk (bench/main.ts).

  deno task bench                       the full run (about seven minutes; it prints its
                                        estimate first)
  deno task bench --seconds=1           shorter measurements
  deno task bench --warmup=5            seconds of warm-up per scenario and target (default 2)
  deno task bench --only=chat-stream    one scenario (plus the baselines it needs)
  deno task bench --only=policies       only the policy-cost comparison (issue #15): the
                                        passthrough scenarios on direct, gatehouse with its
                                        unpolicied key and with its key under every policy
                                        (\`policies.ts\`), three rounds (--rounds=N)
  deno task bench --rounds=3            measure everything three times over; each round is
                                        reported, and the tables pool them
  deno task bench --profile=chat-stream CPU profile of gatehouse on one scenario (c=32;
                                        --concurrency=1 profiles one request at a time;
                                        --target=policied uses the key under every policy)
  deno task bench --allocations=chat-json   where gatehouse's allocations were made on one
                                        scenario, bytes per request (V8's sampling heap
                                        profiler; --concurrency, --target=policied)
  deno task bench --compare=HEAD~3      gatehouse at another commit against this checkout,
                                        both running at once, wrk slices alternating between
                                        them: CPU µs per request and requests served
                                        (\`compare.ts\`; --only=<scenario>, --target=policied,
                                        --rounds=8, --seconds a slice)
  deno task bench --instructions=chat-json  instructions gatehouse executes per request,
                                        counted by valgrind's callgrind: the same on a busy
                                        or slow box, for changes worth a few percent
                                        (\`instructions.ts\`; --target=policied or proxy, --concurrency,
                                        --requests=3000 a round, --rounds=4, --compare=<rev>
                                        counts that commit's build too; several minutes)
  deno task bench --gc=chat-json        what one scenario costs the garbage collector in the
                                        minimal proxy and in gatehouse (--target=policied):
                                        bytes allocated, survived and promoted, pauses, per
                                        request (\`gc.ts\`; --seconds, --concurrency)
  deno task bench --only=scale          the scale-out bench (issues #17, #19, \`scale/main.ts\`):
                                        the real main.ts as a process under wrk at c=32, 1 and
                                        2 workers on SQLite and on Postgres + Redis with every
                                        policy, in turns with direct and the minimal proxy
                                        (ratios, CPU µs per request, per-core cost, 2 workers
                                        against 1), Redis commands per request, ledger rows/s;
                                        writes bench/results/scale.json (--seconds=10,
                                        --warmup=3, --configs=a,b,c,d (e: SQLite and f: Postgres
                                        without Redis, both with every policy, when named),
                                        --ledger-rows=50000,
                                        --cpu-profile=PREFIX, --postgres=URL of a role that may
                                        create databases, --redis=URL)
  deno task bench --only=streams        10,000 concurrent 30 s streams through one main.ts:
                                        completion, chunk gaps, RSS (\`streams/main.ts\`);
                                        --streams=10000 --chunks=60 --interval=500 (ms)
                                        --ramp=10000 (ms to open them all) --prompt-bytes=N
                                        (text added to each request), --target=gatehouse or a
                                        comma list of the targets in \`streams/targets.ts\`,
                                        --workers=N, --reader=raw|fetch, --env=NAME=VALUE
                                        (repeatable); looking inside (first thread only):
                                        --inspect (memory from inside), --snapshot=PREFIX
                                        (heap snapshots idle and open), --cpu-profile=PREFIX,
                                        --allocations, --v8-flags=..., --output=FILE (what
                                        the process printed)
  deno task bench --publish             writes docs/performance.json (the docs' Performance
                                        page) from the results files of the runs above
  deno task bench --only=observe        what metrics and the request log cost (issue #18,
                                        \`observe/main.ts\`): main.ts with both off, metrics on,
                                        metrics and a JSON line per request, under wrk at c=1
                                        and c=32; writes bench/results/observe.json
                                        (--seconds=8, --warmup=3, --rounds=3, --configs=…)
`;
