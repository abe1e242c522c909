import assert from "node:assert/strict";
import { type LatestFile, publishData, type ScaleFile, type StreamsFile } from "./publish.ts";

const result = (throughput: number, p50: number) => ({ throughput, p50, p99: p50 * 3 });

const latest: LatestFile = {
  finishedAt: "2026-11-26T15:00:00.000Z",
  commit: "abc1234",
  machine: {
    cpuModel: "Test CPU",
    cpus: 2,
    memoryGiB: 24,
    kernel: "Linux 6",
    deno: { deno: "2.9.6" },
    wrk: "wrk 4.1.0",
  },
  settings: { generator: "wrk", seconds: 5, rounds: 1 },
  measurements: [
    { scenario: "chat-json", target: "direct", concurrency: 32, result: result(30000, 1) },
    {
      scenario: "chat-json",
      target: "proxy",
      concurrency: 32,
      result: result(8000, 4),
      cpuUsPerRequest: 90.04,
    },
    {
      scenario: "chat-json",
      target: "gatehouse",
      concurrency: 32,
      result: result(6000, 5),
      cpuUsPerRequest: 130.26,
    },
    { scenario: "chat-json", target: "policied", concurrency: 32, result: result(5000, 6) },
    {
      scenario: "chat-json",
      target: "portkey",
      concurrency: 32,
      result: result(1000, 30),
      cpuUsPerRequest: 880.4,
    },
    {
      scenario: "messages-json-to-chat",
      target: "gatehouse",
      concurrency: 32,
      result: result(5500, 5.5),
    },
  ],
  checks: [{ name: "a check", measured: "0.75", target: "≥ 0.80", pass: false }],
};

Deno.test("publishData: a translated row takes its baseline's direct and proxy", () => {
  const data = publishData(latest, null, [], "abc1234");
  assert.equal(data.commit, "abc1234");
  assert.equal(data.machine, "Test CPU, 2 CPUs, 24 GiB, Linux 6, Deno 2.9.6, wrk 4.1.0");
  assert.deepEqual(data.throughput.map((r) => r.scenario), ["chat-json", "messages-json-to-chat"]);
  const [chat, translated] = data.throughput;
  assert.deepEqual(chat!.gatehouse, { rps: 6000, cpuUs: 130.3, p50Ms: 5, p99Ms: 15 });
  assert.equal(chat!.everythingOn?.cpuUs, null, "no CPU figure measured: none shown");
  assert.equal(translated!.kind, "translated");
  assert.equal(translated!.proxy?.rps, 8000, "the chat JSON proxy is its baseline");
  assert.equal(translated!.everythingOn, null);
  assert.deepEqual(chat!.portkey, { rps: 1000, cpuUs: 880.4, p50Ms: 30, p99Ms: 90 });
  assert.equal(translated!.portkey, null, "Portkey runs the JSON passthrough scenarios only");
  assert.deepEqual(data.deployments, []);
  assert.deepEqual(data.checks, latest.checks);
});

Deno.test("publishData: deployments and streams runs", () => {
  const target = (rps: number, us: number) => ({
    wrk: { rps, p50: 1, p99: 2 },
    cpu: { usPerRequest: us },
  });
  const scale: ScaleFile = {
    settings: { configs: [{ id: "c", label: "1 worker, Postgres + Redis", workers: 1 }] },
    runs: [{
      config: "c",
      scenario: "chat-json",
      ...target(2000, 400),
      direct: target(30000, 30),
      proxy: target(8000, 90),
    }],
    checks: [{ name: "pg", measured: "0.25", target: "≥ 0.60", pass: false }],
  };
  const streams: StreamsFile = {
    result: {
      target: "gatehouse",
      streams: 9850,
      chunks: 60,
      intervalMs: 500,
      rampMs: 10000,
      completed: 9850,
      gapBeyondUpstreamMs: { p99: 40, max: 90 },
      rssMb: { idle: 150, peak: 290, after: 160 },
      bytesPerOpenStream: 14000,
      cpuPerChunk: { us: 42.5, timesUpstream: 1.9 },
    },
  };
  const data = publishData(latest, scale, [streams], "abc1234");
  assert.equal(data.deployments[0]?.config, "1 worker, Postgres + Redis");
  assert.equal(data.deployments[0]?.gatehouse.cpuUs, 400);
  assert.equal(data.deploymentChecks[0]?.name, "pg");
  assert.equal(data.streams[0]?.shape, "9850 streams of 60 chunks every 500 ms, opened over 10 s");
  assert.equal(data.streams[0]?.gapP99Ms, 40);
  assert.deepEqual(data.streams[0]?.cpuPerChunk, { us: 42.5, timesUpstream: 1.9 });
});

Deno.test("publishData: the method names the host's steal time when the run read it", () => {
  assert.doesNotMatch(publishData(latest, null, [], "abc1234").method, /steal/);
  const stolen = { ...latest, stolen: { seconds: 12.5, share: 0.0625 } };
  assert.match(
    publishData(stolen, null, [], "abc1234").method,
    /the virtual machine's host took 6\.3% of the cores meanwhile \(steal time\)$/,
  );
});
