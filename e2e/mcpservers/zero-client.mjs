// zero-client.mjs drives `zero mcp serve` with the official TypeScript
// SDK's client (https://github.com/modelcontextprotocol/typescript-sdk),
// for e2e/mcpserve_test.go:
//
//   node zero-client.mjs ZERO_BINARY PROMPT [SERVE_ARGS...]
//
// It connects over stdio (zero runs in the current directory with this
// process's environment), lists the tools, calls `zero` with PROMPT while
// accepting every elicitation, and prints one JSON object: the tool
// names, the call's result, the progress messages and the elicitations.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [bin, prompt, ...serveArgs] = process.argv.slice(2);
const client = new Client({ name: 'zero-e2e-ts', version: '1.0.0' }, { capabilities: { elicitation: {} } });
const elicitations = [];
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  elicitations.push(req.params.message);
  return { action: 'accept', content: { decision: 'allow_once' } };
});
const transport = new StdioClientTransport({
  command: bin,
  args: ['mcp', 'serve', ...serveArgs],
  env: process.env,
  stderr: 'inherit',
});
await client.connect(transport);
const tools = (await client.listTools()).tools.map((t) => t.name);
const progress = [];
const result = await client.callTool({ name: 'zero', arguments: { prompt } }, undefined, {
  onprogress: (p) => progress.push(p.message ?? ''),
});
await client.close();
process.stdout.write(JSON.stringify({ tools, result, progress, elicitations }) + '\n');
