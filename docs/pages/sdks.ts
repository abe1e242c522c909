/**
 * The OpenAI and Anthropic SDKs, in TypeScript and Python.
 * @module
 */
import { code, html } from "../html.ts";
import type { DocsPage } from "./page.ts";

/** `/clients/openai-sdk`. */
export const openaiSdkPage: DocsPage = {
  path: "/clients/openai-sdk",
  title: "OpenAI SDK",
  render: (site) => {
    const model = site.catalog.setupDefaults.flagship;
    return html`
      <p>The OpenAI SDKs append the route to their base URL, so it is the root <em>plus</em>
      <code>/v1</code>: <code>${site.api}/v1</code>. They send the key as
      <code>Authorization: Bearer</code>. Chat Completions and Responses both work with every catalog
      model, Claude models included.</p>
      <p>Instead of passing them in code you can export <code>OPENAI_BASE_URL=${site
        .api}/v1</code> and
      <code>OPENAI_API_KEY</code> (the gatehouse key).</p>
      <h2>TypeScript (<code>openai</code>)</h2>
      ${code(
        `import OpenAI from "openai";

const client = new OpenAI({
  baseURL: "${site.api}/v1",
  apiKey: process.env.GATEHOUSE_API_KEY,
});

const chat = await client.chat.completions.create({
  model: "${model}",
  messages: [{ role: "user", content: "Say hello." }],
});
console.log(chat.choices[0].message.content);

const response = await client.responses.create({ model: "${model}", input: "Say hello." });
console.log(response.output_text);

const stream = client.responses.stream({ model: "${model}", input: "Count to five." });
for await (const event of stream) {
  if (event.type === "response.output_text.delta") process.stdout.write(event.delta);
}`,
        "ts",
      )}
      <h2>Python (<code>openai</code>)</h2>
      ${code(
        `import os
from openai import OpenAI

client = OpenAI(base_url="${site.api}/v1", api_key=os.environ["GATEHOUSE_API_KEY"])

chat = client.chat.completions.create(
    model="${model}",
    messages=[{"role": "user", "content": "Say hello."}],
)
print(chat.choices[0].message.content)

response = client.responses.create(model="${model}", input="Say hello.")
print(response.output_text)

with client.responses.stream(model="${model}", input="Count to five.") as stream:
    for event in stream:
        if event.type == "response.output_text.delta":
            print(event.delta, end="")`,
        "python",
      )}
      <p>Errors raise the SDK's own classes: <code>AuthenticationError</code> (401),
      <code>NotFoundError</code> (404: unknown model or route), <code>BadRequestError</code> (400),
      <code>RateLimitError</code> (429); see <a href="${site.link("/errors")}">errors</a>.</p>
    `;
  },
};

/** `/clients/anthropic-sdk`. */
export const anthropicSdkPage: DocsPage = {
  path: "/clients/anthropic-sdk",
  title: "Anthropic SDK",
  render: (site) => {
    const model = site.catalog.setupDefaults.flagship;
    return html`
      <p>The Anthropic SDKs append <code>/v1/messages</code> themselves, so the base URL is the root,
      <code>${site
        .api}</code> — without <code>/v1</code>. They send the key as <code>x-api-key</code>,
      which the gateway accepts on the Messages and models routes. Every catalog model answers, GPT
      models included.</p>
      <p>Instead of passing them in code you can export <code>ANTHROPIC_BASE_URL=${site
        .api}</code> and
      <code>ANTHROPIC_API_KEY</code> (the gatehouse key).</p>
      <h2>TypeScript (<code>@anthropic-ai/sdk</code>)</h2>
      ${code(
        `import Anthropic from "@anthropic-ai/sdk";

const client = new Anthropic({
  baseURL: "${site.api}",
  apiKey: process.env.GATEHOUSE_API_KEY,
});

const message = await client.messages.create({
  model: "${model}",
  max_tokens: 1024,
  messages: [{ role: "user", content: "Say hello." }],
});
console.log(message.content);

const stream = client.messages.stream({
  model: "${model}",
  max_tokens: 1024,
  messages: [{ role: "user", content: "Count to five." }],
});
stream.on("text", (text) => process.stdout.write(text));
await stream.finalMessage();`,
        "ts",
      )}
      <h2>Python (<code>anthropic</code>)</h2>
      ${code(
        `import os
from anthropic import Anthropic

client = Anthropic(base_url="${site.api}", api_key=os.environ["GATEHOUSE_API_KEY"])

message = client.messages.create(
    model="${model}",
    max_tokens=1024,
    messages=[{"role": "user", "content": "Say hello."}],
)
print(message.content)

with client.messages.stream(
    model="${model}",
    max_tokens=1024,
    messages=[{"role": "user", "content": "Count to five."}],
) as stream:
    for text in stream.text_stream:
        print(text, end="")`,
        "python",
      )}
      <p><code>client.messages.count_tokens(...)</code> works too (counted locally by the gateway).
      Errors raise <code>AuthenticationError</code> (401), <code>NotFoundError</code> (404),
      <code>BadRequestError</code> (400); see <a href="${site.link("/errors")}">errors</a>.</p>
    `;
  },
};
