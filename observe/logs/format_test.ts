import assert from "node:assert/strict";
import {
  clientText,
  isoTime,
  jsonLine,
  MAX_USER_AGENT,
  readLogFormat,
  redactSecrets,
  textLine,
  textValue,
} from "./format.ts";

const env = (values: Record<string, string>) => (name: string) => values[name];

Deno.test("GATEHOUSE_LOG_FORMAT: text by default, json when asked, anything else refused", () => {
  assert.equal(readLogFormat(env({})), "text");
  assert.equal(readLogFormat(env({ GATEHOUSE_LOG_FORMAT: "" })), "text");
  assert.equal(readLogFormat(env({ GATEHOUSE_LOG_FORMAT: "json" })), "json");
  assert.equal(readLogFormat(env({ GATEHOUSE_LOG_FORMAT: " JSON " })), "json");
  assert.equal(readLogFormat(env({ GATEHOUSE_LOG_FORMAT: "text" })), "text");
  assert.throws(
    () => readLogFormat(env({ GATEHOUSE_LOG_FORMAT: "logfmt" })),
    { message: 'GATEHOUSE_LOG_FORMAT="logfmt" is not one of: text, json.' },
  );
});

Deno.test("text line: time, level, message, then key=value with quotes only where needed", () => {
  const line = textLine("2026-11-26T13:00:00.123Z", "warn", "upstream attempt failed", {
    requestId: "req_abc",
    deployment: "gpt-5@openai",
    status: 529,
    skipped: undefined,
    error: 'overloaded "now"\nretry',
    empty: "",
    none: null,
    list: ["a", "b"],
  });
  assert.equal(
    line,
    "2026-11-26T13:00:00.123Z WARN upstream attempt failed requestId=req_abc " +
      'deployment=gpt-5@openai status=529 error="overloaded \\"now\\"\\nretry" empty="" none=- ' +
      'list="[\\"a\\",\\"b\\"]"',
  );
  assert.ok(!line.includes("\n"), "one line whatever the values hold");
  assert.equal(textLine("t", "info", "two\nlines", undefined), "t INFO two\\nlines");
  assert.equal(textValue(true), "true");
});

Deno.test("JSON line: time, level, event, message first, then the fields", () => {
  const line = jsonLine("T", "info", "request", { requestId: "req_1", status: 200 }, "request");
  assert.equal(
    line,
    '{"time":"T","level":"info","event":"request","message":"request","requestId":"req_1","status":200}',
  );
  assert.deepEqual(JSON.parse(jsonLine("T", "error", "x\ny", undefined)), {
    time: "T",
    level: "error",
    message: "x\ny",
  });
});

Deno.test("redaction: gatehouse keys, provider keys and bearer values never reach a line", () => {
  const key = "gth_abcdefghij_Zx9-secretsecretsecret";
  assert.equal(redactSecrets(`key ${key} used`), "key [redacted] used");
  assert.equal(redactSecrets("sent sk-upstream-openai upstream"), "sent [redacted] upstream");
  assert.equal(redactSecrets("x sk-ant-api03-AAAAAAAA y"), "x [redacted] y");
  assert.equal(
    redactSecrets('authorization: "Bearer abc.def"'),
    'authorization: "Bearer [redacted]"',
  );
  const plain = "request req_1 /v1/chat/completions 200 ok model=gpt-5 task-runner risk-free";
  assert.equal(redactSecrets(plain), plain, "ordinary text is left alone");
  assert.equal(redactSecrets(plain), plain, "twice in a row (the pattern keeps no state)");
});

Deno.test("client text: control characters stripped, cut to a sane length, keys redacted", () => {
  assert.equal(clientText(null), null);
  assert.equal(clientText("curl/8.0\r\nX-Evil: 1\u0000"), "curl/8.0X-Evil: 1");
  const long = clientText("a".repeat(5000))!;
  assert.equal(long.length, MAX_USER_AGENT + 1);
  assert.ok(long.endsWith("…"));
  assert.equal(clientText("agent gth_abcdefghij_secretsecret"), "agent [redacted]");
});

Deno.test("isoTime: the moment given, or now, as ISO 8601 with milliseconds", () => {
  assert.equal(isoTime(Date.UTC(2026, 10, 26, 13, 0, 0, 123)), "2026-11-26T13:00:00.123Z");
  // The same millisecond again, then another: each formatted as itself.
  assert.equal(isoTime(Date.UTC(2026, 10, 26, 13, 0, 0, 123)), "2026-11-26T13:00:00.123Z");
  assert.equal(isoTime(Date.UTC(2026, 10, 26, 13, 0, 0, 124)), "2026-11-26T13:00:00.124Z");
  const before = Date.now();
  const now = Date.parse(isoTime());
  assert.ok(now >= before && now <= Date.now());
});
