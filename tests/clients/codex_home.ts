/**
 * What a real Codex run needs offline, shared by the Codex tests: a proxy that refuses every
 * request (so any call Codex makes beyond the gateway is caught and recorded), and its
 * `config.toml` naming the gateway as a Responses provider.
 * @module
 */

/** A proxy that refuses every request and records its first line (`CONNECT host:443 ...`). */
export function startProxyTrap() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const attempts: string[] = [];
  const refuse = new TextEncoder().encode(
    "HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n",
  );
  const serving = (async () => {
    for await (const conn of listener) {
      const buffer = new Uint8Array(1024);
      const n = await conn.read(buffer).catch(() => null);
      attempts.push(
        new TextDecoder().decode(buffer.subarray(0, n ?? 0)).split("\r\n")[0] ??
          "",
      );
      await conn.write(refuse).catch(() => 0);
      conn.close();
    }
  })().catch(() => {});
  const url = `http://127.0.0.1:${listener.addr.port}`;
  const noProxy = "127.0.0.1,localhost";
  return {
    attempts,
    env: {
      HTTPS_PROXY: url,
      HTTP_PROXY: url,
      ALL_PROXY: url,
      https_proxy: url,
      http_proxy: url,
      NO_PROXY: noProxy,
      no_proxy: noProxy,
    },
    async close() {
      listener.close();
      await serving;
    },
  };
}

/** Codex's config: the gateway root as a Responses provider keyed from auth.json, no calls
 * home (analytics off; plugin sync, which fetches from github.com and chatgpt.com, off). */
export function codexConfig(model: string, gatewayUrl: string): string {
  return [
    `model = "${model}"`,
    `model_provider = "gatehouse"`,
    "",
    "[model_providers.gatehouse]",
    `name = "gatehouse"`,
    `base_url = "${gatewayUrl}"`,
    `wire_api = "responses"`,
    "requires_openai_auth = true",
    "supports_websockets = false",
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[features]",
    "plugins = false",
    "",
  ].join("\n");
}
