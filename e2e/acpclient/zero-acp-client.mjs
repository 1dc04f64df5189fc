// zero-acp-client.mjs drives `zero acp` with the official ACP TypeScript
// SDK's client (https://github.com/agentclientprotocol/typescript-sdk),
// for e2e/acp_test.go:
//
//   node zero-acp-client.mjs ZERO_BINARY SCENARIO ARG [ZERO_ACP_ARGS...]
//
// zero runs in the current directory with this process's environment.
// Scenarios:
//   prompt TEXT   a new session, TEXT sent; permission requests answered
//                 in the order of $ZERO_ACP_ANSWERS (comma-separated
//                 option ids, then allow_once)
//   load ID       session/load of session ID in a fresh process
//   cancel TEXT   a new session switched to auto-accept (session/set_mode),
//                 TEXT sent, session/cancel once an execute tool call runs
// With $ZERO_ACP_BUFFERS (a JSON object of absolute path → text) the client
// offers fs/read_text_file and fs/write_text_file over those editor buffers.
// It prints one JSON object: the initialize response, the session id, the
// stop reason, every session/update, the permission requests, the fs
// requests and buffers after them, and zero's exit code after the client
// closed its stdin.
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const [bin, scenario, arg, ...acpArgs] = process.argv.slice(2);
const answers = (process.env.ZERO_ACP_ANSWERS ?? '').split(',').filter(Boolean);
const child = spawn(bin, ['acp', ...acpArgs], { stdio: ['pipe', 'pipe', 'inherit'] });
const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

const buffers = process.env.ZERO_ACP_BUFFERS ? JSON.parse(process.env.ZERO_ACP_BUFFERS) : null;
const fsRequests = [];
const updates = [];
const permissions = [];
let onUpdate = () => {};
const app = acp
  .client({ name: 'zero-e2e-acp' })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    updates.push(params.update);
    onUpdate(params);
  })
  .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
    permissions.push(params);
    const optionId = answers.shift() ?? 'allow_once';
    return { outcome: { outcome: 'selected', optionId } };
  })
  .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
    fsRequests.push({ method: 'read', path: params.path });
    if (!(params.path in buffers)) throw acp.RequestError.resourceNotFound(params.path);
    return { content: buffers[params.path] };
  })
  .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
    fsRequests.push({ method: 'write', path: params.path });
    buffers[params.path] = params.content;
    return {};
  });

const out = await app.connectWith(stream, async (ctx) => {
  const init = await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: buffers ? { fs: { readTextFile: true, writeTextFile: true } } : {},
    clientInfo: { name: 'zero-e2e-acp', version: '1.0.0' },
  });
  const cwd = process.cwd();
  if (scenario === 'load') {
    await ctx.request(acp.methods.agent.session.load, { sessionId: arg, cwd, mcpServers: [] });
    return { init, sessionId: arg };
  }
  const { sessionId, modes } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  if (scenario === 'cancel') {
    await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'auto-accept' });
    onUpdate = (n) => {
      if (n.update.sessionUpdate === 'tool_call' && n.update.kind === 'execute') {
        setTimeout(() => ctx.notify(acp.methods.agent.session.cancel, { sessionId }), 300);
      }
    };
  }
  const resp = await ctx.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text: arg }],
  });
  return { init, sessionId, modes, stopReason: resp.stopReason };
});
child.stdin.end();
const code = await exited;
process.stdout.write(JSON.stringify({ ...out, updates, permissions, fsRequests, buffers, exitCode: code }) + '\n');
